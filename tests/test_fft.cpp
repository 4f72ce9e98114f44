// xp::fft: hand-computed transforms, every transform against a direct O(n^2) DFT over lengths with
// primes among them, axes and norms, NumPy's dtypes and errors, the n-dimensional forms, frequencies and
// shifts, the plan caches, and gradients against finite differences.
#include <doctest/doctest.h>

#include <cmath>
#include <complex>
#include <numbers>
#include <thread>
#include <vector>

#include "device_cases.hpp"
#include "gradient_check.hpp"
#include "xp/fft.hpp"
#include "xp/xp.hpp"

namespace {

using C = std::complex<double>;
using D = xp::ndarray<double>;
using Inputs = xp_test::Inputs;

std::vector<C> values_of(const xp::ndarray<>& a) { return xp::ndarray<C>(a.astype(xp::dtype::complex128)).to_vector(); }

// |got - want| <= tolerance * (1 + max |want|) elementwise.
void check_close(const xp::ndarray<>& got, const std::vector<C>& want, double tolerance) {
  const std::vector<C> values = values_of(got);
  REQUIRE(values.size() == want.size());
  double scale = 1;
  for (const C& w : want) scale = std::max(scale, std::abs(w));
  for (std::size_t k = 0; k < want.size(); ++k) {
    INFO("element ", k, ": ", values[k], " vs ", want[k]);
    CHECK(std::abs(values[k] - want[k]) <= tolerance * scale);
  }
}

void check_close(const xp::ndarray<>& got, const xp::ndarray<>& want, double tolerance) {
  REQUIRE(got.shape() == want.shape());
  check_close(got, values_of(want), tolerance);
}

// The DFT of x's rows (length m each) at n points: x cropped or padded with zeros; sign -1 forward.
std::vector<C> direct_dft(const std::vector<C>& x, std::size_t m, std::size_t n, int sign) {
  std::vector<C> out;
  for (std::size_t row = 0; row < x.size() / m; ++row)
    for (std::size_t k = 0; k < n; ++k) {
      C total = 0;
      for (std::size_t j = 0; j < std::min(m, n); ++j)
        total += x[row * m + j] *
                 std::polar(1.0, sign * 2 * std::numbers::pi * static_cast<double>(j * k % n) / static_cast<double>(n));
      out.push_back(total);
    }
  return out;
}

// Distinct complex values of shape (rows, m) on `device`.
xp::ndarray<> signal(std::int64_t rows, std::int64_t m, xp::Device device, bool complex = true) {
  const D re = xp_test::smooth_values({rows, m}, device);
  if (!complex) return re;
  return xp::add(
      xp::ndarray<>(re).astype(xp::dtype::complex128),
      xp::multiply(xp::ndarray<>(xp_test::smooth_values({rows, m}, device, 0.7)).astype(xp::dtype::complex128),
                   C(0, 1)));
}

// Rows of length n from `full` rows of length `length`, first `keep` of each.
std::vector<C> first_of_rows(const std::vector<C>& full, std::size_t length, std::size_t keep) {
  std::vector<C> out;
  for (std::size_t row = 0; row < full.size() / length; ++row)
    out.insert(out.end(), full.begin() + static_cast<std::ptrdiff_t>(row * length),
               full.begin() + static_cast<std::ptrdiff_t>(row * length + keep));
  return out;
}

std::vector<C> scaled(std::vector<C> values, double factor) {
  for (C& v : values) v *= factor;
  return values;
}

}  // namespace

XP_TEST_ON_DEVICES("fft and ifft of [1, 2, 3, 4] by hand") {
  const auto x = xp::array<double>({1, 2, 3, 4}, device);
  const xp::ndarray<> y = xp::fft::fft(x);
  CHECK(y.dtype() == xp::dtype::complex128);
  check_close(y, {C(10, 0), C(-2, 2), C(-2, 0), C(-2, -2)}, 1e-15);
  check_close(xp::fft::ifft(y), {C(1), C(2), C(3), C(4)}, 1e-15);
  check_close(xp::fft::rfft(x), {C(10, 0), C(-2, 2), C(-2, 0)}, 1e-15);
  check_close(xp::fft::irfft(xp::fft::rfft(x)), {C(1), C(2), C(3), C(4)}, 1e-15);
  check_close(xp::fft::fft(x, std::nullopt, -1, "ortho"), {C(5), C(-1, 1), C(-1), C(-1, -1)}, 1e-15);
  check_close(xp::fft::fft(x, std::nullopt, -1, "forward"), {C(2.5), C(-0.5, 0.5), C(-0.5), C(-0.5, -0.5)}, 1e-15);
  // n crops or pads with zeros: fft([1, 2]) and fft([1, 2, 3, 4, 0, 0]).
  check_close(xp::fft::fft(x, 2), {C(3), C(-1)}, 1e-15);
  check_close(xp::fft::fft(x, 6), direct_dft({1, 2, 3, 4}, 4, 6, -1), 1e-14);
}

XP_TEST_ON_DEVICES("every transform against a direct DFT, lengths with primes, both precisions") {
  for (const std::int64_t n : {1, 2, 5, 8, 12, 17, 97}) {
    for (const bool single : {false, true}) {
      INFO("n = ", n, single ? " complex64" : " complex128");
      const double tolerance = single ? 1e-5 : 1e-12;
      const xp::ndarray<> z = single ? signal(3, n, device).astype(xp::dtype::complex64) : signal(3, n, device);
      const xp::ndarray<> x = xp::real(z);
      const std::vector<C> zs = values_of(z), xs = values_of(x);
      const auto un = static_cast<std::size_t>(n), half = un / 2 + 1;
      const xp::ndarray<> y = xp::fft::fft(z);
      CHECK(y.dtype() == (single ? xp::dtype::complex64 : xp::dtype::complex128));
      check_close(y, direct_dft(zs, un, un, -1), tolerance);
      check_close(xp::fft::ifft(z), scaled(direct_dft(zs, un, un, 1), 1.0 / static_cast<double>(n)), tolerance);
      const xp::ndarray<> r = xp::fft::rfft(x);
      CHECK(r.shape() == xp::Shape{3, n / 2 + 1});
      check_close(r, first_of_rows(direct_dft(xs, un, un, -1), un, half), tolerance);
      // irfft(rfft(x), n) is x; ihfft(x) is conj(rfft(x)) / n; hfft(ihfft(x), n) is x.
      const xp::ndarray<> back = xp::fft::irfft(r, n);
      CHECK(back.dtype() == (single ? xp::dtype::float32 : xp::dtype::float64));
      check_close(back, x, tolerance);
      check_close(xp::fft::ihfft(x), scaled(values_of(xp::conj(r)), 1.0 / static_cast<double>(n)), tolerance);
      check_close(xp::fft::hfft(xp::fft::ihfft(x), n), x, tolerance);
    }
  }
}

XP_TEST_ON_DEVICES("transforms along other axes, of stacks, with every norm") {
  const xp::ndarray<> z = signal(6, 5, device).reshape({2, 3, 5});
  // Along axis 1: the direct DFT of the array with that axis moved last.
  const xp::ndarray<> moved = xp::ascontiguousarray(xp::moveaxis(z, 1, -1));
  for (const char* norm : {"backward", "ortho", "forward"}) {
    INFO(norm);
    const double factor = std::string_view(norm) == "backward" ? 1
                          : std::string_view(norm) == "ortho"  ? 1 / std::sqrt(4.0)
                                                               : 0.25;
    const xp::ndarray<> y = xp::fft::fft(z, 4, 1, norm);
    CHECK(y.shape() == xp::Shape{2, 4, 5});
    check_close(xp::ascontiguousarray(xp::moveaxis(y, 1, -1)), scaled(direct_dft(values_of(moved), 3, 4, -1), factor),
                1e-12);
    // The inverse with the same norm undoes it.
    check_close(xp::fft::ifft(xp::fft::fft(z, std::nullopt, 0, norm), std::nullopt, 0, norm), z, 1e-12);
    check_close(xp::fft::irfft(xp::fft::rfft(xp::real(z), std::nullopt, 2, norm), 5, 2, norm), xp::real(z), 1e-12);
  }
}

XP_TEST_ON_DEVICES("NumPy's dtypes for transforms") {
  const auto ints = xp::array<std::int32_t>({1, 0, -1, 0}, device);
  CHECK(xp::fft::fft(ints).dtype() == xp::dtype::complex128);
  CHECK(xp::fft::rfft(xp::ndarray<>(ints).astype(xp::dtype::bool_)).dtype() == xp::dtype::complex128);
  check_close(xp::fft::fft(ints), {C(0), C(2), C(0), C(2)}, 1e-15);
  const xp::ndarray<> halves = xp::ndarray<>(ints).astype(xp::dtype::float16);
  CHECK(xp::fft::fft(halves).dtype() == xp::dtype::complex64);
  CHECK(xp::fft::rfft(xp::ndarray<>(ints).astype(xp::dtype::bfloat16)).dtype() == xp::dtype::complex64);
  CHECK(xp::fft::irfft(xp::fft::rfft(halves)).dtype() == xp::dtype::float32);
  CHECK(xp::fft::hfft(xp::fft::fft(halves)).dtype() == xp::dtype::float32);
  CHECK(xp::fft::ihfft(halves).dtype() == xp::dtype::complex64);
  // NumPy's loops take a float16 input of irfft and hfft for real: the result is float16 too.
  CHECK(xp::fft::irfft(halves).dtype() == xp::dtype::float16);
  CHECK(xp::fft::hfft(halves).dtype() == xp::dtype::float16);
  // Empty stacks transform to empty results of the same batch.
  CHECK(xp::fft::fft(xp::zeros<float>({0, 4}, device)).shape() == xp::Shape{0, 4});
  CHECK(xp::fft::rfft(xp::zeros<float>({0, 4}, device)).shape() == xp::Shape{0, 3});
}

XP_TEST_ON_DEVICES("NumPy's errors for transforms") {
  const auto x = xp::array<double>({1, 2, 3, 4}, device);
  CHECK_THROWS_WITH_AS(xp::fft::fft(x, 0), "Invalid number of FFT data points (0) specified.", xp::ValueError);
  CHECK_THROWS_WITH_AS(xp::fft::fft(xp::zeros<double>({0}, device)), "Invalid number of FFT data points (0) specified.",
                       xp::ValueError);
  CHECK_THROWS_WITH_AS(xp::fft::irfft(xp::array<double>({1}, device)),
                       "Invalid number of FFT data points (0) specified.", xp::ValueError);
  CHECK_THROWS_WITH_AS(xp::fft::fft(x, std::nullopt, -1, "unitary"),
                       "Invalid norm value unitary; should be \"backward\", \"ortho\" or \"forward\".", xp::ValueError);
  CHECK_THROWS_WITH_AS(xp::fft::fft(x, std::nullopt, 1), "fft: axis 1 is out of bounds for array of dimension 1",
                       xp::ValueError);
  CHECK_THROWS_AS(xp::fft::fft(xp::zeros<double>({}, device)), xp::ValueError);
  CHECK_THROWS_AS(xp::fft::rfft(xp::fft::fft(x)), xp::TypeError);
  CHECK_THROWS_AS(xp::fft::ihfft(xp::fft::fft(x)), xp::TypeError);
  const D square = xp::ones<double>({2, 2}, device);
  CHECK_THROWS_WITH_AS(xp::fft::fftn(square, std::vector<std::int64_t>{2, 2}, {0}),
                       "fftn: Shape and axes have different lengths.", xp::ValueError);
  CHECK_THROWS_AS(xp::fft::fftn(square, std::nullopt, {2}), xp::ValueError);
  CHECK_THROWS_AS(xp::fft::rfftn(square, std::nullopt, std::vector<int>{}), xp::ValueError);
  CHECK_THROWS_AS(xp::fft::fftfreq(0), xp::ValueError);
  CHECK_THROWS_AS(xp::fft::rfftfreq(4, 0.0), xp::ValueError);
}

XP_TEST_ON_DEVICES("fft2, fftn, rfftn and irfftn") {
  const xp::ndarray<> z = signal(12, 5, device).reshape({3, 4, 5});
  // fftn is fft along each axis; fft2 along the last two.
  const xp::ndarray<> each = xp::fft::fft(xp::fft::fft(xp::fft::fft(z, std::nullopt, 0), std::nullopt, 1));
  check_close(xp::fft::fftn(z), each, 1e-12);
  check_close(xp::fft::fft2(z), xp::fft::fft(xp::fft::fft(z, std::nullopt, 1)), 1e-12);
  check_close(xp::fft::ifftn(xp::fft::fftn(z)), z, 1e-12);
  check_close(xp::fft::ifft2(xp::fft::fft2(z, std::nullopt, {0, 2}), std::nullopt, {0, 2}), z, 1e-12);
  // Lengths crop and pad; -1 keeps an axis's extent; s alone takes the last axes.
  const xp::ndarray<> sized = xp::fft::fftn(z, std::vector<std::int64_t>{2, -1}, {0, 2});
  CHECK(sized.shape() == xp::Shape{2, 4, 5});
  check_close(sized, xp::fft::fft(xp::fft::fft(z, std::nullopt, 2), 2, 0), 1e-12);
  CHECK(xp::fft::fftn(z, std::vector<std::int64_t>{6, 7}).shape() == xp::Shape{3, 6, 7});
  // rfftn: rfft along the last axis, fft along the others; irfftn undoes it.
  const xp::ndarray<> x = xp::real(z);
  const xp::ndarray<> half = xp::fft::rfftn(x);
  CHECK(half.shape() == xp::Shape{3, 4, 3});
  check_close(half, xp::fft::fft(xp::fft::fft(xp::fft::rfft(x), std::nullopt, 1), std::nullopt, 0), 1e-12);
  check_close(xp::fft::irfftn(half, std::vector<std::int64_t>{3, 4, 5}, {0, 1, 2}), x, 1e-12);
  CHECK(xp::fft::irfftn(half).shape() == xp::Shape{3, 4, 4});  // 2 (m - 1) along the last axis
  check_close(xp::fft::irfft2(xp::fft::rfft2(x), std::vector<std::int64_t>{4, 5}), x, 1e-12);
}

XP_TEST_ON_DEVICES("fftfreq, rfftfreq, fftshift and ifftshift as NumPy's") {
  const D even(xp::fft::fftfreq(4, 0.5, device));
  CHECK(even.device() == device);
  CHECK(even.to_vector() == std::vector<double>{0, 0.5, -1, -0.5});
  check_close(xp::fft::fftfreq(5, 0.5, device), {C(0), C(0.4), C(0.8), C(-0.8), C(-0.4)}, 1e-15);
  check_close(xp::fft::rfftfreq(6, 1.0, device), {C(0), C(1.0 / 6), C(2.0 / 6), C(0.5)}, 1e-15);
  const auto odd = xp::array<double>({0, 1, 2, -2, -1}, device);
  CHECK(D(xp::fft::fftshift(odd)).to_vector() == std::vector<double>{-2, -1, 0, 1, 2});
  CHECK(D(xp::fft::ifftshift(xp::fft::fftshift(odd))).to_vector() == odd.to_vector());
  const auto grid = xp::arange<double>(0, 6, 1, device).reshape({2, 3});
  CHECK(D(xp::fft::fftshift(grid)).to_vector() == std::vector<double>{5, 3, 4, 2, 0, 1});
  CHECK(D(xp::fft::fftshift(grid, 1)).to_vector() == std::vector<double>{2, 0, 1, 5, 3, 4});
  CHECK(D(xp::fft::ifftshift(grid, 1)).to_vector() == std::vector<double>{1, 2, 0, 4, 5, 3});
}

XP_TEST_ON_DEVICES("plans are made once per shape and kept within the cache's bound") {
  xp::fft::clear_plan_cache(device);
  CHECK(xp::fft::cached_plans(device) == 0);
  const xp::ndarray<> z = signal(2, 7, device);
  const xp::ndarray<> first = xp::fft::fft(z);
  CHECK(xp::fft::cached_plans(device) == 1);
  check_close(xp::fft::fft(z), first, 0);  // the same plan, the same values
  CHECK(xp::fft::cached_plans(device) == 1);
  for (std::int64_t n = 2; n < 2 + static_cast<std::int64_t>(xp::fft::kPlanCacheSize) + 5; ++n) xp::fft::fft(z, n);
  CHECK(xp::fft::cached_plans(device) == xp::fft::kPlanCacheSize);
  check_close(xp::fft::fft(z), first, 0);
  xp::fft::clear_plan_cache(device);
  CHECK(xp::fft::cached_plans(device) == 0);
}

XP_TEST_ON_DEVICES("views at every alignment transform as their copies do") {
  for (const bool single : {false, true}) {
    const char* const precision = single ? "single" : "double";
    INFO(precision);
    const double tolerance = single ? 1e-5 : 1e-12;
    const xp::ndarray<> z = single ? signal(1, 70, device).astype(xp::dtype::complex64) : signal(1, 70, device);
    const xp::ndarray<> line = z.reshape({70}), real_line = xp::ascontiguousarray(xp::real(line));
    for (std::int64_t offset = 0; offset < 4; ++offset) {
      INFO("offset ", offset);
      const xp::ndarray<> view = line(xp::slice(offset, offset + 64));  // contiguous, not aligned as pool blocks
      check_close(xp::fft::fft(view), xp::fft::fft(view.copyto(device)), tolerance);
      const xp::ndarray<> real_view = real_line(xp::slice(offset, offset + 64));
      check_close(xp::fft::rfft(real_view), xp::fft::rfft(real_view.copyto(device)), tolerance);
    }
  }
}

TEST_CASE("fft on several threads at once agrees with one thread") {
  const xp::ndarray<> z = signal(64, 1000, xp::cpu(0));
  const xp::ndarray<> want = xp::fft::fft(z);
  std::vector<std::thread> threads;
  std::vector<xp::ndarray<>> got(4);
  for (std::size_t t = 0; t < got.size(); ++t)
    threads.emplace_back([&, t] { got[t] = xp::fft::fft(z, 1000 + static_cast<std::int64_t>(t % 2)); });
  for (auto& thread : threads) thread.join();
  check_close(got[0], want, 0);
  check_close(got[1], xp::fft::fft(z, 1001), 0);
}

XP_TEST_ON_DEVICES("gradients of the transforms against finite differences") {
  const D re = xp_test::smooth_values({2, 5}, device), im = xp_test::smooth_values({2, 5}, device, 0.3);
  // A complex input from two real ones, and a real output from a complex result: both parts.
  const auto complex_of = [](const Inputs& x) {
    return xp::add(xp::ndarray<>(x[0]).astype(xp::dtype::complex128),
                   xp::multiply(xp::ndarray<>(x[1]).astype(xp::dtype::complex128), C(0, 1)));
  };
  const auto parts = [](const xp::ndarray<>& y) { return D(xp::concatenate({xp::real(y), xp::imag(y)}, -1)); };
  for (const char* norm : {"backward", "ortho", "forward"}) {
    INFO(norm);
    xp_test::check_gradients([&](const Inputs& x) { return parts(xp::fft::fft(complex_of(x), 7, -1, norm)); },
                             {re, im});
    xp_test::check_gradients([&](const Inputs& x) { return parts(xp::fft::ifft(complex_of(x), 4, 0, norm)); },
                             {re, im});
    xp_test::check_gradients([&](const Inputs& x) { return parts(xp::fft::rfft(x[0], 6, -1, norm)); }, {re});
    xp_test::check_gradients([&](const Inputs& x) { return parts(xp::fft::ihfft(x[0], 5, -1, norm)); }, {re});
    for (const std::int64_t n : {7, 8}) {
      xp_test::check_gradients([&](const Inputs& x) { return D(xp::fft::irfft(complex_of(x), n, -1, norm)); },
                               {re, im});
      xp_test::check_gradients([&](const Inputs& x) { return D(xp::fft::hfft(complex_of(x), n, -1, norm)); }, {re, im});
    }
  }
  xp_test::check_gradients(
      [&](const Inputs& x) { return D(xp::fft::irfftn(complex_of(x), std::vector<std::int64_t>{3, 6}, {0, 1})); },
      {re, im});
}

XP_GPU_TEST_CASE("GPU transforms agree with the CPU's, on the current stream, plans per thread") {
  const xp::ndarray<> z = signal(8, 1000, xp::cpu(0));
  const xp::Stream stream(xp::gpu(0), true);
  xp::ndarray<> on_gpu;
  {
    const xp::StreamScope scope(stream);
    on_gpu = xp::fft::fft(z.copyto(xp::gpu(0)), 1024);
  }
  stream.synchronize();
  check_close(on_gpu.copyto(xp::cpu(0)), xp::fft::fft(z, 1024), 1e-12);
  const xp::ndarray<> x = xp::real(z).astype(xp::dtype::float32);
  check_close(xp::fft::irfft(xp::fft::rfft(x.copyto(xp::gpu(0))), 1000).copyto(xp::cpu(0)), x, 1e-5);
  CHECK(xp::fft::cached_plans(xp::gpu(0)) >= 2);
  std::size_t other_thread_plans = 1;
  std::thread([&] { other_thread_plans = xp::fft::cached_plans(xp::gpu(0)); }).join();
  CHECK(other_thread_plans == 0);
}
