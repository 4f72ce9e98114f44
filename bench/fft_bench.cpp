// The transforms at the sizes: fft of 2^20 complex64 values, rfft of 2^22 float32 values, and
// fft of a prime length, 10007 complex128 values (FFTW's Rader/Bluestein path). Prints the thread counts
// on a `# threads` line, then one line per measurement: name, elements, seconds per call.
#include <omp.h>
#include <xp/fft.hpp>
#include <xp/xp.hpp>

#include <cstdio>
#include <string>
#include <vector>

#include "timing.hpp"

namespace {

template <class F>
bench::Measurement measured(std::string name, std::int64_t n, int calls, F f) {
  return {std::move(name), n, 0.0, calls, [=] { bench::escape(f().raw_data()); }, {}};
}

xp::ndarray<> complex_values(xp::random::Generator& g, std::int64_t n, xp::dtype type) {
  return xp::add(xp::ndarray<>(g.standard_normal<double>({n})).astype(type),
                 xp::multiply(xp::ndarray<>(g.standard_normal<double>({n})).astype(type), std::complex<double>(0, 1)));
}

}  // namespace

int main(int argc, char** argv) {
  const int rounds = bench::rounds_from(argc, argv, 7);
  xp::random::Generator g(1);
  const xp::ndarray<> c64 = complex_values(g, 1 << 20, xp::dtype::complex64);
  const xp::ndarray<> f32 = g.standard_normal<float>({1 << 22});
  const xp::ndarray<> prime = complex_values(g, 10007, xp::dtype::complex128);
  std::vector<bench::Measurement> measurements;
  measurements.push_back(measured("xp_fft_2^20_complex64", 1 << 20, 4, [=] { return xp::fft::fft(c64); }));
  measurements.push_back(measured("xp_rfft_2^22_float32", 1 << 22, 2, [=] { return xp::fft::rfft(f32); }));
  measurements.push_back(measured("xp_fft_10007_complex128", 10007, 50, [=] { return xp::fft::fft(prime); }));
  std::printf("# threads xparray %d\n", omp_get_max_threads());
  bench::run_and_print(measurements, rounds);
}
