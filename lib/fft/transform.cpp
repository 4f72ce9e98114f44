// The transforms over the last axis: the output allocated, the arrays ordered on the device's current
// stream, the device's plans run, and the result recorded with its adjoint (PyTorch's gradients: the
// unnormalised complex transforms are each other's adjoint; rfft's is the inverse of its gradient padded
// with zeros, real part kept; irfft's is rfft of the gradient with the frequencies that stand for two
// doubled).
#include "fft/transform.hpp"

#include <vector>

#include "support/linear_operation.hpp"
#include "support/ordered_exec.hpp"
#include "xp/creation.hpp"
#include "xp/fft.hpp"
#include "xp/foreign_memory.hpp"
#include "xp/manipulation.hpp"
#include "xp/math.hpp"

namespace xp::fft::detail {

namespace {

bool is_double(xp::dtype type) { return type == xp::dtype::float64 || type == xp::dtype::complex128; }

std::int64_t output_length(Kind kind, std::int64_t n) { return kind == Kind::real_forward ? n / 2 + 1 : n; }

xp::dtype output_dtype(Kind kind, bool double_precision) {
  if (kind == Kind::real_backward) return double_precision ? xp::dtype::float64 : xp::dtype::float32;
  return double_precision ? xp::dtype::complex128 : xp::dtype::complex64;
}

// The transform of the rows of `x` (contiguous), unrecorded.
ndarray<> run(Kind kind, const ndarray<>& x, std::int64_t n) {
  const bool double_precision = is_double(x.dtype());
  Shape shape = x.shape();
  shape[shape.ndim() - 1] = output_length(kind, n);
  ndarray<> y = xp::empty(shape, output_dtype(kind, double_precision), x.device());
  if (y.size() == 0) return y;
  const xp::detail::ArrayCore* arrays[] = {&x, &y};
  const xp::detail::Exec exec = xp::detail::ordered_exec(x.device(), arrays);
  const Call call{kind,         double_precision, n, static_cast<std::int64_t>(y.size()) / shape[shape.ndim() - 1],
                  x.raw_data(), y.raw_data()};
  if (x.device().is_gpu()) run_on_gpu(call, exec.stream);
  else run_on_cpu(call);
  return y;
}

// 1 at frequency 0 (and n / 2 for even n), 2 at those rfft's output stands for twice.
ndarray<> hermitian_weights(std::int64_t n, xp::dtype type, Device device) {
  std::vector<double> weights(static_cast<std::size_t>(n / 2 + 1), 2.0);
  weights.front() = 1;
  if (n % 2 == 0) weights.back() = 1;
  return ndarray<>(xp::from_host(weights.data(), Shape{static_cast<std::int64_t>(weights.size())}, device))
      .astype(type);
}

ndarray<> adjoint(Kind kind, const ndarray<>& g, std::int64_t n) {
  switch (kind) {
    case Kind::forward: return transform(Kind::backward, g, n);
    case Kind::backward: return transform(Kind::forward, g, n);
    case Kind::real_forward: {
      std::vector<std::array<std::int64_t, 2>> widths(static_cast<std::size_t>(g.ndim()), {0, 0});
      widths.back()[1] = n - g.shape()[g.ndim() - 1];
      return real(transform(Kind::backward, pad(g, widths), n));
    }
    case Kind::real_backward: {
      const ndarray<> spectrum = transform(Kind::real_forward, g, n);
      return spectrum * hermitian_weights(n, real(spectrum).dtype(), g.device());
    }
  }
  return g;
}

}  // namespace

std::string_view name_of(Kind kind) noexcept {
  switch (kind) {
    case Kind::forward: return "fft";
    case Kind::backward: return "ifft";
    case Kind::real_forward: return "rfft";
    case Kind::real_backward: return "irfft";
  }
  return "fft";
}

ndarray<> transform(Kind kind, const ndarray<>& x, std::int64_t n) {
  // The devices' c2r transforms overwrite their input: theirs is a copy. The gradient goes to x itself
  // (rows has its shape and dtype).
  const ndarray<> rows =
      kind == Kind::real_backward ? ndarray<>(xp::detail::copy_to(x, x.device())) : ascontiguousarray(x);
  const ndarray<> y = run(kind, rows, n);
  return ndarray<>(xp::detail::record_linear(
      std::string(name_of(kind)), x, y,
      [kind, n](const xp::detail::ArrayCore& g) -> xp::detail::ArrayCore { return adjoint(kind, ndarray<>(g), n); }));
}

}  // namespace xp::fft::detail

namespace xp::fft {

std::size_t cached_plans(Device device) { return device.is_gpu() ? detail::gpu_plans(device) : detail::cpu_plans(); }

void clear_plan_cache(Device device) {
  if (device.is_gpu()) detail::clear_gpu_plans(device);
  else detail::clear_cpu_plans();
}

}  // namespace xp::fft
