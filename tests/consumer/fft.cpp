// A consumer of xp::fft alone: the transform of [1, 2, 3, 4] and back.
#include <xp/fft.hpp>
#include <xp/xp.hpp>

#include <complex>
#include <cstdio>

int main() {
  const auto x = xp::array<double>({1, 2, 3, 4});
  const auto spectrum = xp::ndarray<std::complex<double>>(xp::fft::fft(x)).to_vector();
  const auto back = xp::ndarray<double>(xp::fft::irfft(xp::fft::rfft(x), 4)).to_vector();
  const bool ok = spectrum[0] == std::complex<double>(10, 0) && std::abs(back[3] - 4) < 1e-12;
  std::printf("consumer_fft: fft(1, 2, 3, 4)[0] = %g, irfft(rfft(x))[3] = %g\n", spectrum[0].real(), back[3]);
  return ok ? 0 : 1;
}
