// numpy.fft's transforms: NumPy's checks and dtypes, the input cropped or padded to the lengths asked
// for, each transformed axis moved last for the devices' row transforms (transform.cpp), and the scale
// `norm` asks for. The n-dimensional forms are one-dimensional ones axis after axis, in NumPy's order.
#include <cmath>
#include <vector>

#include "fft/transform.hpp"
#include "xp/fft.hpp"
#include "xp/manipulation.hpp"
#include "xp/math.hpp"

namespace xp::fft {

namespace {

using detail::Kind;

enum class Norm { backward, ortho, forward };

Norm norm_of(std::string_view norm) {
  if (norm == "backward") return Norm::backward;
  if (norm == "ortho") return Norm::ortho;
  XP_CHECK(norm == "forward", ValueError, "Invalid norm value ", norm,
           "; should be \"backward\", \"ortho\" or \"forward\".");
  return Norm::forward;
}

// hfft and ihfft are irfft and rfft of the other direction: their norm is swapped.
std::string_view swapped(std::string_view norm) {
  const Norm kind = norm_of(norm);
  return kind == Norm::backward ? "forward" : kind == Norm::forward ? "backward" : "ortho";
}

int axis_of(std::string_view op, int axis, int ndim) {
  XP_CHECK(axis >= -ndim && axis < ndim, ValueError, op, ": axis ", axis, " is out of bounds for array of dimension ",
           ndim);
  return axis < 0 ? axis + ndim : axis;
}

std::int64_t checked_points(std::int64_t n) {
  XP_CHECK(n >= 1, ValueError, "Invalid number of FFT data points (", n, ") specified.");
  return n;
}

// NumPy 2 transforms float32 (and the 2-byte floats, as float32) in single precision, the rest in double.
bool single_precision(xp::dtype type) {
  return type == xp::dtype::float32 || type == xp::dtype::complex64 || type == xp::dtype::float16 ||
         type == xp::dtype::bfloat16;
}

ndarray<> as_complex(const ndarray<>& a) {
  const xp::dtype type = single_precision(a.dtype()) ? xp::dtype::complex64 : xp::dtype::complex128;
  return a.dtype() == type ? a : a.astype(type);
}

ndarray<> as_real(std::string_view op, const ndarray<>& a) {
  XP_CHECK(!is_complex(a.dtype()), TypeError, op, ": the input is ", a.dtype(),
           ", which has no real transform (take xp::real of it first)");
  const xp::dtype type = single_precision(a.dtype()) ? xp::dtype::float32 : xp::dtype::float64;
  return a.dtype() == type ? a : a.astype(type);
}

// x with `axis` of extent n: its first n elements, or padded with zeros at the end.
ndarray<> resized(const ndarray<>& x, int axis, std::int64_t n) {
  const std::int64_t extent = x.shape()[axis];
  if (extent == n) return x;
  if (extent > n) {
    std::vector<Index> indices(static_cast<std::size_t>(x.ndim()), Index(slice()));
    indices[static_cast<std::size_t>(axis)] = slice(0, n);
    return x(indices);
  }
  std::vector<std::array<std::int64_t, 2>> widths(static_cast<std::size_t>(x.ndim()), {0, 0});
  widths[static_cast<std::size_t>(axis)][1] = n - extent;
  return pad(x, widths);
}

// The factor `norm` puts on a transform of n points in the given direction.
double scale(Norm norm, bool inverse, std::int64_t n) {
  if (norm == Norm::ortho) return 1 / std::sqrt(static_cast<double>(n));
  const bool divided = inverse ? norm == Norm::backward : norm == Norm::forward;
  return divided ? 1 / static_cast<double>(n) : 1.0;
}

// The transform along `axis` of x (already of the input dtype `kind` takes), of length n, scaled.
ndarray<> along(Kind kind, const ndarray<>& x, int axis, std::int64_t n, std::string_view norm) {
  const Norm normalisation = norm_of(norm);
  const std::int64_t input_length = kind == Kind::real_backward ? n / 2 + 1 : n;
  const ndarray<> rows = moveaxis(resized(x, axis, input_length), axis, -1);
  const ndarray<> y = detail::transform(kind, rows, n);
  const double factor = scale(normalisation, kind == Kind::backward || kind == Kind::real_backward, n);
  return moveaxis(factor == 1 ? y : y * factor, -1, axis);
}

ndarray<> complex_transform(std::string_view op, bool inverse, const ndarray<>& a, std::optional<std::int64_t> n,
                            int axis, std::string_view norm) {
  const ndarray<> x = as_complex(a);
  axis = axis_of(op, axis, x.ndim());
  return along(inverse ? Kind::backward : Kind::forward, x, axis, checked_points(n.value_or(x.shape()[axis])), norm);
}

// irfft, or hfft (irfft of the conjugate, its norm swapped by the caller). A 2-byte float input gives a
// result of its own dtype, as NumPy's (whose loops take it for a real type).
ndarray<> real_inverse(std::string_view op, const ndarray<>& a, bool conjugated, std::optional<std::int64_t> n,
                       int axis, std::string_view norm) {
  const ndarray<> x = conjugated ? conj(as_complex(a)) : as_complex(a);
  axis = axis_of(op, axis, x.ndim());
  const ndarray<> y = along(Kind::real_backward, x, axis, checked_points(n.value_or(2 * (x.shape()[axis] - 1))), norm);
  const bool two_byte = a.dtype() == xp::dtype::float16 || a.dtype() == xp::dtype::bfloat16;
  return two_byte ? y.astype(a.dtype()) : y;
}

}  // namespace

ndarray<> fft(const ndarray<>& a, std::optional<std::int64_t> n, int axis, std::string_view norm) {
  return complex_transform("fft", false, a, n, axis, norm);
}

ndarray<> ifft(const ndarray<>& a, std::optional<std::int64_t> n, int axis, std::string_view norm) {
  return complex_transform("ifft", true, a, n, axis, norm);
}

ndarray<> rfft(const ndarray<>& a, std::optional<std::int64_t> n, int axis, std::string_view norm) {
  const ndarray<> x = as_real("rfft", a);
  axis = axis_of("rfft", axis, x.ndim());
  return along(Kind::real_forward, x, axis, checked_points(n.value_or(x.shape()[axis])), norm);
}

ndarray<> irfft(const ndarray<>& a, std::optional<std::int64_t> n, int axis, std::string_view norm) {
  return real_inverse("irfft", a, false, n, axis, norm);
}

ndarray<> hfft(const ndarray<>& a, std::optional<std::int64_t> n, int axis, std::string_view norm) {
  return real_inverse("hfft", a, true, n, axis, swapped(norm));
}

ndarray<> ihfft(const ndarray<>& a, std::optional<std::int64_t> n, int axis, std::string_view norm) {
  return conj(rfft(a, n, axis, swapped(norm)));
}

}  // namespace xp::fft
