// NumPy's around from multiply, rint and divide, so that autograd sees each step (rint's gradient is 0).
#include <cmath>
#include <cstdlib>

#include "xp/error.hpp"
#include "xp/math.hpp"
#include "xp/promotion.hpp"

namespace xp {

ndarray<> around(const ndarray<>& a, int decimals) {
  XP_CHECK(a.dtype() != dtype::bool_ || decimals >= 0, TypeError, "around: cannot write the result of rounding bool ",
           "to ", decimals, " decimals (float64) into bool (NumPy's same_kind casting)");
  if (decimals == 0 && detail::is_inexact_dtype(a.dtype())) return rint(a);  // as NumPy: complex parts apart
  const bool integral = detail::is_integer_dtype(a.dtype());
  if (integral && decimals >= 0) return a.copyto(a.device());
  // Integers round in float64 and are cast back, as NumPy's; bool gives the float dtype of the library's float
  // functions (NumPy: float16). 10^k is exact in a double up to 10^22.
  const ndarray<> x = integral                    ? a.astype(dtype::float64)
                      : a.dtype() == dtype::bool_ ? a.astype(float_compute_type(a.dtype()))
                                                  : a;
  const double factor = std::pow(10.0, std::abs(decimals));
  const ndarray<> rounded = decimals >= 0 ? ndarray<>(divide(rint(multiply(x, factor)), factor))
                                          : ndarray<>(multiply(rint(divide(x, factor)), factor));
  return integral ? rounded.astype(a.dtype()) : rounded;
}

}  // namespace xp
