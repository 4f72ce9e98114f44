#pragma once
/// \file
/// NumPy's discrete Fourier transforms (numpy.fft, CuPy's cupy.fft; API §14). Link xp::fft, built when
/// CMake finds FFTW3 (XP_FFT=AUTO|ON|OFF): FFTW is GPL-2+, so a program that links xp::fft is bound by
/// the GPL, and programs that do not never load it. `<xp/fft.hpp>` itself needs no FFTW.
///
/// \code{.cpp}
///   auto spectrum = xp::fft::rfft(signal);                          // n / 2 + 1 complex values
///   auto back = xp::fft::irfft(spectrum, signal.shape()[0]);         // the signal again
///   auto image = xp::fft::fft2(a, std::nullopt, {-2, -1}, "ortho");  // unitary
/// \endcode
///
/// - Any length, primes included; a length `n` crops or pads the input with zeros along the axis.
/// - Results as NumPy 2's: float32, float16 and bfloat16 input (and complex64) transform in single
///   precision to complex64 / float32; everything else (integers, bool, float64) in double precision.
///   rfft and ihfft refuse complex input (TypeError); irfft and hfft of a 2-byte float input give its
///   dtype, as NumPy's do.
/// - `norm`: "backward" (1/n on the inverse), "ortho" (1/sqrt(n) both ways) or "forward" (1/n forward).
/// - CPUs: FFTW3, each transform planned once per (kind, length, batch, alignment, threads) and the plan
///   kept; large ones on the OpenMP threads the library's loops use. GPUs: cuFFT, plans kept per thread
///   and device (kind, length, batch), run on the device's current stream with their work area from the
///   device's memory pool. Both caches keep at most kPlanCacheSize plans each, the oldest dropped first.
/// - Each transform is one recorded operation: autograd gives the adjoint transform (PyTorch's gradients,
///   the real-input transforms included).
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "xp/axes.hpp"
#include "xp/device.hpp"
#include "xp/export.hpp"
#include "xp/ndarray.hpp"

namespace xp::fft {

/// The lengths of the transformed axes (NumPy's `s`): std::nullopt, the input's; -1 in a place, that
/// axis's own.
using Lengths = std::optional<std::vector<std::int64_t>>;

/// How many plans each cache (FFTW's for CPUs, cuFFT's per thread and GPU) keeps.
inline constexpr std::size_t kPlanCacheSize = 32;

/// The one-dimensional discrete Fourier transform along `axis`, of length `n` (the axis's extent when
/// not given).
XP_API ndarray<> fft(const ndarray<>& a, std::optional<std::int64_t> n = std::nullopt, int axis = -1,
                     std::string_view norm = "backward");
/// Its inverse.
XP_API ndarray<> ifft(const ndarray<>& a, std::optional<std::int64_t> n = std::nullopt, int axis = -1,
                      std::string_view norm = "backward");
/// The transform of real input: the n / 2 + 1 non-negative frequencies.
XP_API ndarray<> rfft(const ndarray<>& a, std::optional<std::int64_t> n = std::nullopt, int axis = -1,
                      std::string_view norm = "backward");
/// The inverse of rfft: `n` real values (2 (m - 1) for m input values when not given).
XP_API ndarray<> irfft(const ndarray<>& a, std::optional<std::int64_t> n = std::nullopt, int axis = -1,
                       std::string_view norm = "backward");
/// The transform of a signal with Hermitian symmetry given by its first half: `n` real values.
XP_API ndarray<> hfft(const ndarray<>& a, std::optional<std::int64_t> n = std::nullopt, int axis = -1,
                      std::string_view norm = "backward");
/// The inverse of hfft: n / 2 + 1 complex values of real input.
XP_API ndarray<> ihfft(const ndarray<>& a, std::optional<std::int64_t> n = std::nullopt, int axis = -1,
                       std::string_view norm = "backward");

/// fftn over two axes.
XP_API ndarray<> fft2(const ndarray<>& a, const Lengths& s = std::nullopt, const Axes& axes = {-2, -1},
                      std::string_view norm = "backward");
/// ifftn over two axes.
XP_API ndarray<> ifft2(const ndarray<>& a, const Lengths& s = std::nullopt, const Axes& axes = {-2, -1},
                       std::string_view norm = "backward");
/// rfftn over two axes.
XP_API ndarray<> rfft2(const ndarray<>& a, const Lengths& s = std::nullopt, const Axes& axes = {-2, -1},
                       std::string_view norm = "backward");
/// irfftn over two axes.
XP_API ndarray<> irfft2(const ndarray<>& a, const Lengths& s = std::nullopt, const Axes& axes = {-2, -1},
                        std::string_view norm = "backward");
/// The transform over `axes` (every axis when not given; the last len(s) when only `s` is), each axis of
/// length s[i].
XP_API ndarray<> fftn(const ndarray<>& a, const Lengths& s = std::nullopt, const Axes& axes = std::nullopt,
                      std::string_view norm = "backward");
/// Its inverse.
XP_API ndarray<> ifftn(const ndarray<>& a, const Lengths& s = std::nullopt, const Axes& axes = std::nullopt,
                       std::string_view norm = "backward");
/// rfft over the last of `axes`, then fft over the others.
XP_API ndarray<> rfftn(const ndarray<>& a, const Lengths& s = std::nullopt, const Axes& axes = std::nullopt,
                       std::string_view norm = "backward");
/// The inverse of rfftn: ifft over all but the last of `axes`, then irfft over it.
XP_API ndarray<> irfftn(const ndarray<>& a, const Lengths& s = std::nullopt, const Axes& axes = std::nullopt,
                        std::string_view norm = "backward");

/// The frequencies of fft's results for `n` points spaced `d` apart, float64: [0, 1, ..., -1] / (n d).
XP_API ndarray<> fftfreq(std::int64_t n, double d = 1.0, Device device = current_device());
/// Those of rfft's: [0, 1, ..., n / 2] / (n d).
XP_API ndarray<> rfftfreq(std::int64_t n, double d = 1.0, Device device = current_device());
/// The zero frequency moved to the middle of each of `axes` (every axis when not given).
XP_API ndarray<> fftshift(const ndarray<>& x, const Axes& axes = std::nullopt);
/// The inverse of fftshift.
XP_API ndarray<> ifftshift(const ndarray<>& x, const Axes& axes = std::nullopt);

/// How many plans the cache serving `device` holds (for GPUs: the calling thread's).
XP_API std::size_t cached_plans(Device device = current_device());
/// Drops the plans the cache serving `device` holds (for GPUs: the calling thread's).
XP_API void clear_plan_cache(Device device = current_device());

}  // namespace xp::fft
