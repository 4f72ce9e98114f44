// NumPy's diag: the view of a matrix's diagonal, or a vector placed on one by where() over eye's mask,
// so that autograd sees it.
#include <cstdlib>

#include "xp/creation.hpp"
#include "xp/diagonal.hpp"
#include "xp/manipulation.hpp"
#include "xp/math.hpp"

namespace xp {

ndarray<> diag(const ndarray<>& v, std::int64_t k) {
  if (v.ndim() == 2) return diagonal(v, k);
  XP_CHECK(v.ndim() == 1, ValueError, "diag: the input must be 1-D or 2-D, not of shape ", v.shape());
  const std::int64_t shift = std::abs(k), n = v.shape()[0] + shift;
  // Element (i, i + k) is v[i] for k >= 0: v padded at the end as a column; for k < 0 element (j - k, j)
  // is v[j]: v padded as a row.
  const ndarray<> padded = pad(v, {0, shift});
  const ndarray<> aligned = k >= 0 ? padded.reshape({n, 1}) : padded.reshape({1, n});
  return where(eye<bool>(n, n, k, v.device()), aligned, xp::zeros(Shape{1}, v.dtype(), v.device()));
}

}  // namespace xp
