// NumPy's around from multiply, rint and divide, so that autograd sees each step (rint's gradient is 0) and xp::fuse
// traces each.
#include <cmath>
#include <cstdlib>
#include <type_traits>

#include "xp/error.hpp"
#include "xp/math.hpp"
#include "xp/promotion.hpp"

namespace xp {

namespace {

// On arrays and on traced values alike, so that a fused around computes what the unfused one does.
template <class A>
A rounded(const A& a, int decimals) {
  XP_CHECK(a.dtype() != dtype::bool_ || decimals >= 0, TypeError, "around: cannot write the result of rounding bool ",
           "to ", decimals, " decimals (float64) into bool (NumPy's same_kind casting)");
  if (decimals == 0 && detail::is_inexact_dtype(a.dtype())) return A(rint(a));  // as NumPy: complex parts apart
  const bool integral = detail::is_integer_dtype(a.dtype());
  if (integral && decimals >= 0) {
    if constexpr (std::is_same_v<A, TracedValue>) return a;  // a fused result is a new array already
    else return a.copyto(a.device());
  }
  // Integers round in float64 and are cast back, as NumPy's; bool gives the float dtype of the library's float
  // functions (NumPy: float16). 10^k is exact in a double up to 10^22.
  const A x = integral                    ? A(a.astype(dtype::float64))
              : a.dtype() == dtype::bool_ ? A(a.astype(float_compute_type(a.dtype())))
                                          : a;
  const double factor = std::pow(10.0, std::abs(decimals));
  const A result =
      decimals >= 0 ? A(divide(rint(multiply(x, factor)), factor)) : A(multiply(rint(divide(x, factor)), factor));
  return integral ? A(result.astype(a.dtype())) : result;
}

}  // namespace

ndarray<> around(const ndarray<>& a, int decimals) { return rounded(a, decimals); }

TracedValue around(const TracedValue& a, int decimals) { return rounded(a, decimals); }

}  // namespace xp
