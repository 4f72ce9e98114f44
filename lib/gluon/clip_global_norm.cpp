// gluon.utils.clip_global_norm.
#include <algorithm>
#include <cmath>
#include <string>

#include "xp/math.hpp"
#include "xp/reductions.hpp"
#include "xp/utils/arrays.hpp"
#include "xp/warnings.hpp"

namespace xp::utils {

namespace detail {

double clip_global_norm(std::span<const xp::detail::ArrayCore> arrays, double max_norm, bool check_isfinite) {
  XP_CHECK(!arrays.empty(), ValueError, "clip_global_norm: no arrays");
  // Each array's norm on its own device; the sum of squares on the host, in double.
  double squares = 0;
  for (const xp::detail::ArrayCore& a : arrays) {
    const ndarray<> norm(xp::detail::reduce(xp::detail::Reduction::norm, a, std::nullopt, false, 0));
    const double n = norm.item<double>();
    squares += n * n;
  }
  const double total = std::sqrt(squares);
  if (check_isfinite && !std::isfinite(total)) {
    warn("clip_global_norm: the global norm is " + std::to_string(total) + ": the arrays were left unscaled");
    return total;
  }
  const double scale = std::min(max_norm / (total + 1e-8), 1.0);
  if (scale < 1.0 || std::isnan(scale)) {
    for (const xp::detail::ArrayCore& a : arrays) {
      const xp::detail::Operand operands[] = {{&a, {}}, {nullptr, xp::detail::scalar_value(scale)}};
      xp::detail::elementwise(xp::detail::ElementwiseOp::multiply, operands, a);
    }
  }
  return total;
}

}  // namespace detail

}  // namespace xp::utils
