#pragma once
// One batch of one-dimensional transforms over the last axis, unnormalised: what numpy_fft.cpp builds
// NumPy's functions of, and what the devices' plans (fftw_plans.cpp, cufft_plans.cpp) run.
#include <cstdint>
#include <string_view>

#include "xp/ndarray.hpp"
#include "xp/stream.hpp"

namespace xp::fft::detail {

enum class Kind : std::uint8_t {
  forward,  // complex -> complex, e^{-2 pi i jk / n}
  backward,  // complex -> complex, e^{+2 pi i jk / n}
  real_forward,  // n real -> n / 2 + 1 complex
  real_backward,  // n / 2 + 1 complex (Hermitian) -> n real
};

std::string_view name_of(Kind kind) noexcept;

// What a device runs: `batch` rows of contiguous input, each of the kind's input length for a
// transform of length n, into as many contiguous rows of output.
struct Call {
  Kind kind;
  bool double_precision;
  std::int64_t n;
  std::int64_t batch;
  const void* input;
  void* output;
};

// FFTW3 (fftw_plans.cpp); the input is not written. Its plans serve every thread.
void run_on_cpu(const Call& call);
std::size_t cpu_plans();
void clear_cpu_plans();
// cuFFT on `stream` (cufft_plans.cpp); the input of real_backward may be overwritten. Its plans are the
// calling thread's, per device.
void run_on_gpu(const Call& call, const Stream& stream);
std::size_t gpu_plans(Device device);
void clear_gpu_plans(Device device);

// The transform of length n of each row along the last axis of `x` (complex, or real for
// real_forward, of the precision it has), recorded for autograd.
ndarray<> transform(Kind kind, const ndarray<>& x, std::int64_t n);

}  // namespace xp::fft::detail
