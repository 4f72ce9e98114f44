// NumPy's nan-reductions, made of isnan, where and the built-in reductions, so that autograd
// records each step (NaN elements get no gradient).
#include "xp/reduction_routines.hpp"

#include <complex>
#include <limits>
#include <string>

#include "xp/math.hpp"
#include "xp/reductions.hpp"
#include "xp/warnings.hpp"

namespace xp {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

bool may_hold_nan(const ndarray<>& a) { return detail::is_inexact_dtype(a.dtype()); }

// a with its NaN elements replaced by `value`: below (or above) every number for nanmax (nanmin), so
// that they lose; complex arrays take it in both parts, as their order is by real part, then imaginary.
ndarray<> nan_replaced(const ndarray<>& a, const ndarray<>& mask, double value) {
  if (is_complex(a.dtype())) return where(mask, std::complex<double>(value, value), a);
  return where(mask, value, a);
}

// A 2-byte float array's moment computed in float32 and rounded once, as the built-in reductions do.
template <class Moment>
ndarray<> in_float32(const ndarray<>& a, Moment&& moment) {
  return moment(a.astype(dtype::float32)).astype(a.dtype());
}

// Whether some element of a bool array is true, read back.
bool any_true(const ndarray<>& flags) { return any(flags).item<bool>(); }

// The number of non-NaN elements over the axes, as float64 for dividing by.
ndarray<> number_count(const ndarray<>& mask, const Axes& axes, bool keepdims) {
  return sum(logical_not(mask), axes, keepdims).astype(dtype::float64);
}

// nanmax and nanmin: the NaNs replaced by a value that loses, and NaN again where all were NaN.
ndarray<> nan_extremum(const ndarray<>& a, const Axes& axes, bool keepdims, bool largest) {
  if (!may_hold_nan(a)) return largest ? max(a, axes, keepdims) : min(a, axes, keepdims);
  const ndarray<> mask = isnan(a);
  const ndarray<> filled = nan_replaced(a, mask, largest ? -kInf : kInf);
  const ndarray<> extremum = largest ? max(filled, axes, keepdims) : min(filled, axes, keepdims);
  const ndarray<> all_nan = all(mask, axes, keepdims);
  if (!any_true(all_nan)) return extremum;
  utils::warn("All-NaN slice encountered");
  return where(all_nan, kNaN, extremum);
}

// nanargmax and nanargmin: arg* over the NaNs replaced by a value that loses; an all-NaN slice has no answer.
ndarray<> nan_position(const ndarray<>& a, const Axes& axes, bool keepdims, bool largest) {
  const char* name = largest ? "nanargmax" : "nanargmin";
  if (!may_hold_nan(a)) return largest ? argmax(a, axes, keepdims) : argmin(a, axes, keepdims);
  const ndarray<> mask = isnan(a);
  const ndarray<> filled = nan_replaced(a, mask, largest ? -kInf : kInf);
  const ndarray<> position = largest ? argmax(filled, axes, keepdims) : argmin(filled, axes, keepdims);
  XP_CHECK(a.size() == 0 || !any_true(all(mask, axes)), ValueError, name, ": All-NaN slice encountered");
  return position;
}

}  // namespace

ndarray<> nansum(const ndarray<>& a, const Axes& axes, bool keepdims) {
  return sum(may_hold_nan(a) ? where(isnan(a), 0, a) : a, axes, keepdims);
}

ndarray<> nanprod(const ndarray<>& a, const Axes& axes, bool keepdims) {
  return prod(may_hold_nan(a) ? where(isnan(a), 1, a) : a, axes, keepdims);
}

ndarray<> nanmean(const ndarray<>& a, const Axes& axes, bool keepdims) {
  if (!may_hold_nan(a)) return mean(a, axes, keepdims);
  if (is_two_byte_float(a.dtype()))
    return in_float32(a, [&](const ndarray<>& x) { return nanmean(x, axes, keepdims); });
  const ndarray<> mask = isnan(a);
  const ndarray<> count = number_count(mask, axes, keepdims);
  if (any_true(equal(count, 0))) utils::warn("Mean of empty slice");
  return divide(sum(where(mask, 0, a), axes, keepdims), count).astype(a.dtype());
}

ndarray<> nanmax(const ndarray<>& a, const Axes& axes, bool keepdims) {
  return nan_extremum(a, axes, keepdims, /*largest=*/true);
}

ndarray<> nanmin(const ndarray<>& a, const Axes& axes, bool keepdims) {
  return nan_extremum(a, axes, keepdims, /*largest=*/false);
}

ndarray<> nanargmax(const ndarray<>& a, const Axes& axes, bool keepdims) {
  return nan_position(a, axes, keepdims, /*largest=*/true);
}

ndarray<> nanargmin(const ndarray<>& a, const Axes& axes, bool keepdims) {
  return nan_position(a, axes, keepdims, /*largest=*/false);
}

// NumPy's nanvar: each slice's mean of its numbers, their squared deviations summed, divided by the
// count less ddof, NaN where that is not positive.
ndarray<> nanvar(const ndarray<>& a, const Axes& axes, bool keepdims, std::int64_t ddof) {
  if (!may_hold_nan(a)) return var(a, axes, keepdims, ddof);
  if (is_two_byte_float(a.dtype()))
    return in_float32(a, [&](const ndarray<>& x) { return nanvar(x, axes, keepdims, ddof); });
  const xp::dtype type = detail::reduction_dtype(detail::Reduction::var, a.dtype());
  const ndarray<> mask = isnan(a);
  const ndarray<> filled = where(mask, 0, a);
  const ndarray<> count = number_count(mask, axes, /*keepdims=*/true);
  const ndarray<> slice_mean = divide(sum(filled, axes, /*keepdims=*/true), count).astype(a.dtype());
  const ndarray<> deviation = where(mask, 0, subtract(filled, slice_mean));
  const ndarray<> magnitude = is_complex(a.dtype()) ? abs(deviation) : deviation;
  const ndarray<> squares = sum(multiply(magnitude, magnitude), axes, keepdims);
  const ndarray<> freedom = subtract(count.reshape(squares.shape()), static_cast<double>(ddof));
  const ndarray<> no_freedom = less_equal(freedom, 0);
  const ndarray<> variance = divide(squares, freedom).astype(type);
  if (!any_true(no_freedom)) return variance;
  utils::warn("Degrees of freedom <= 0 for slice.");
  return where(no_freedom, kNaN, variance);
}

ndarray<> nanstd(const ndarray<>& a, const Axes& axes, bool keepdims, std::int64_t ddof) {
  if (!may_hold_nan(a)) return std(a, axes, keepdims, ddof);
  if (is_two_byte_float(a.dtype()))
    return in_float32(a, [&](const ndarray<>& x) { return nanstd(x, axes, keepdims, ddof); });
  return sqrt(nanvar(a, axes, keepdims, ddof));
}

}  // namespace xp
