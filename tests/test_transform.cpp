// xp::transform with user functors. In CUDA builds this file is compiled by nvcc, so the GPU path of
// user functors is compiled (for sm_80 and sm_90) and its GPU cases run wherever a GPU is present.
#include <doctest/doctest.h>

#include <cmath>
#include <complex>
#include <cstdint>
#include <vector>

#include "device_cases.hpp"
#include "xp/transform.hpp"

namespace {

struct SquaredDifference {
  XP_HOST_DEVICE float operator()(float x, float y) const { return (x - y) * (x - y); }
};

// Over any complex type: std::complex on CPUs, cuda::std::complex on GPUs (extended lambdas cannot be generic).
struct ComplexMix {
  template <class C>
  XP_HOST_DEVICE C operator()(C a, C b, C s) const {
    return a * b + s * a.real();
  }
};

struct SquaredMagnitude {
  template <class C>
  XP_HOST_DEVICE auto operator()(C a) const {
    return a.real() * a.real() + a.imag() * a.imag();
  }
};

std::vector<float> iota_values(std::int64_t n, float scale = 1) {
  std::vector<float> v(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) v[i] = scale * static_cast<float>(i % 1000);
  return v;
}

}  // namespace

XP_TEST_ON_DEVICES("transform of two arrays with a functor") {
  const auto x = xp::array<float>({1, 2, 3, 4}, device);
  const auto y = xp::array<float>({4, 3, 2, 1}, device);
  const auto z = xp::transform(SquaredDifference{}, x, y);
  CHECK(z.device() == device);
  CHECK(z.to_vector() == std::vector<float>{9, 1, 1, 9});
  const auto w = xp::transform([] XP_HOST_DEVICE(float a, float b) { return a * 10 + b; }, x, y);
  CHECK(w.to_vector() == std::vector<float>{14, 23, 32, 41});
}

XP_TEST_ON_DEVICES("transform broadcasts arrays and takes scalars of any type") {
  const auto m = xp::arange<float>(0, 6, 1, device).reshape({2, 3});
  const auto row = xp::array<float>({10, 20, 30}, device);
  const auto column = xp::array<float>({{100}, {200}}, device);
  const auto sum = xp::transform([] XP_HOST_DEVICE(float a, float b, float c) { return a + b + c; }, m, row, column);
  CHECK(sum.shape() == xp::Shape(2, 3));
  CHECK(sum.to_vector() == std::vector<float>{110, 121, 132, 213, 224, 235});
  const auto scaled = xp::transform([] XP_HOST_DEVICE(float a, double s, int k) { return a * s + k; }, m, 0.5, 3);
  CHECK(scaled.dtype() == xp::dtype::float64);  // f's result type
  CHECK(scaled.to_vector() == std::vector<double>{3, 3.5, 4, 4.5, 5, 5.5});
  CHECK_THROWS_WITH_AS(
      xp::transform([] XP_HOST_DEVICE(float a, float b) { return a + b; }, m, xp::ones<float>({4}, device)),
      "transform: operands could not be broadcast together with shapes (2, 3) (4,)", xp::ValueError);
}

XP_TEST_ON_DEVICES("transform's result type is f's, or the output's") {
  const auto a = xp::array<int>({-2, 0, 5}, device);
  const auto positive = xp::transform([] XP_HOST_DEVICE(int v) { return v > 0; }, a);
  CHECK(positive.dtype() == xp::dtype::bool_);
  CHECK(positive.to_vector() == std::vector<bool>{false, false, true});
  const auto halves = xp::transform([] XP_HOST_DEVICE(int v) { return v / 2.0; }, a);
  CHECK(halves.to_vector() == std::vector<double>{-1, 0, 2.5});
  const auto out = xp::zeros<std::int16_t>({3}, device);
  const auto same = xp::transform([] XP_HOST_DEVICE(int v) { return v * 1.5; }, a, xp::out(out));
  CHECK(same.shares_buffer_with(out));
  CHECK(out.to_vector() == std::vector<std::int16_t>{-3, 0, 7});  // 7.5 converted: truncated
}

XP_TEST_ON_DEVICES("transform in place, and with an output that overlaps an input") {
  const auto x = xp::arange<float>(0, 6, 1, device);
  xp::transform([] XP_HOST_DEVICE(float v, float s) { return v * s; }, x, 2.0f, xp::out(x));
  CHECK(x.to_vector() == std::vector<float>{0, 2, 4, 6, 8, 10});
  // out = x[1:] and the input x[:-1] share memory shifted by one: the input is copied first, so
  // the result is NumPy's, not a running smear.
  xp::transform([] XP_HOST_DEVICE(float v) { return v + 1; }, x(xp::slice(0, 5)), xp::out(x(xp::slice(1, 6))));
  CHECK(x.to_vector() == std::vector<float>{0, 1, 3, 5, 7, 9});
  CHECK_THROWS_WITH_AS(xp::transform([] XP_HOST_DEVICE(float v) { return v; }, x, xp::out(x.broadcast_to({2, 6}))),
                       doctest::Contains("the output is a broadcast view"), xp::ValueError);
  CHECK_THROWS_WITH_AS(
      xp::transform([] XP_HOST_DEVICE(float v) { return v; }, xp::ones<float>({2, 6}, device), xp::out(x)),
      "transform: the output has shape (6,) but the operands broadcast to (2, 6)", xp::ValueError);
}

XP_TEST_ON_DEVICES("transform over strided, transposed, broadcast and zero-size operands") {
  const auto m = xp::arange<float>(0, 12, 1, device).reshape({3, 4});
  const auto t = xp::transform([] XP_HOST_DEVICE(float a, float b) { return a - b; }, m.transpose(),
                               m(xp::slice(), xp::slice(xp::none, xp::none, -1)).transpose());
  CHECK(t.shape() == xp::Shape(4, 3));
  CHECK(t.to_vector() == std::vector<float>{-3, -3, -3, -1, -1, -1, 1, 1, 1, 3, 3, 3});
  const auto stepped = xp::transform([] XP_HOST_DEVICE(float a) { return a * a; },
                                     m(xp::slice(xp::none, xp::none, 2), xp::slice(1, 4, 2)));
  CHECK(stepped.to_vector() == std::vector<float>{1, 9, 81, 121});
  const auto b = xp::transform([] XP_HOST_DEVICE(float a, float c) { return a + c; },
                               xp::array<float>({1, 2}, device).broadcast_to({3, 2}), 1.0f);
  CHECK(b.to_vector() == std::vector<float>{2, 3, 2, 3, 2, 3});
  const auto none = xp::transform([] XP_HOST_DEVICE(float a) { return a; }, xp::zeros<float>({0, 3}, device));
  CHECK(none.shape() == xp::Shape(0, 3));
  const auto scalar = xp::transform([] XP_HOST_DEVICE(float a) { return a + 1; }, xp::full<float>({}, 1.5f, device));
  CHECK(scalar.item() == 2.5f);
}

XP_TEST_ON_DEVICES("transform of large arrays runs in parallel and gets every element") {
  constexpr std::int64_t n = (1 << 20) + 37;
  const auto x = xp::array<float>(iota_values(n), device);
  const auto y = xp::array<float>(iota_values(n, 0.5f), device);
  const std::vector<float> z = xp::transform(SquaredDifference{}, x, y).to_vector();
  bool all = true;
  for (std::int64_t i = 0; i < n; ++i) {
    const float d = static_cast<float>(i % 1000) * 0.5f;
    all = all && z[i] == d * d;
  }
  CHECK(all);
  const auto m = x(xp::slice(0, 1 << 20)).reshape({1024, 1024});
  const std::vector<float> t = xp::transform([] XP_HOST_DEVICE(float a) { return a + 1; }, m.transpose()).to_vector();
  bool transposed = true;
  for (std::int64_t r = 0; r < 1024; ++r)
    for (std::int64_t c = 0; c < 1024; ++c)
      transposed = transposed && t[r * 1024 + c] == static_cast<float>((c * 1024 + r) % 1000) + 1;
  CHECK(transposed);
}

XP_TEST_ON_DEVICES(
    "transform over complex arrays and a complex scalar: a functor template takes both backends' complex") {
  using c64 = std::complex<float>;
  const auto x = xp::array<c64>({c64(1, 2), c64(-3, 0.5f), c64(0, -1)}, device);
  const auto y = xp::array<c64>({c64(2, -1), c64(0.25f, 4), c64(5, 5)}, device);
  const auto z = xp::transform(ComplexMix{}, x, y, c64(0, 1));
  CHECK(z.dtype() == xp::dtype::complex64);
  const std::vector<c64> got = z.to_vector(), xs = x.to_vector(), ys = y.to_vector();
  for (std::size_t k = 0; k < got.size(); ++k) {
    const c64 want = xs[k] * ys[k] + c64(0, 1) * xs[k].real();
    CHECK(std::abs(got[k] - want) <= 1e-6f * std::abs(want));
  }
  // A real result from complex operands, into an output.
  auto magnitude = xp::zeros<float>({3}, device);
  xp::transform(SquaredMagnitude{}, x, xp::out(magnitude));
  CHECK(magnitude.to_vector() == std::vector<float>{5, 9.25f, 1});
}

XP_TEST_ON_DEVICES("transform with many operands") {
  const auto a = xp::full<float>({4}, 1.0f, device);
  const auto f = [] XP_HOST_DEVICE(float p, float q, float r, float s, float t, float u, float v) {
    return p + 2 * q + 3 * r + 4 * s + 5 * t + 6 * u + 7 * v;
  };
  CHECK(xp::transform(f, a, a, a, a, a, a, a).to_vector() == std::vector<float>(4, 28));
  CHECK_THROWS_WITH_AS(
      xp::transform([] XP_HOST_DEVICE(float, float, float, float, float, float, float, float) { return 0.0f; }, a, a, a,
                    a, a, a, a, a),
      "transform: at most 7 operands are supported, not 8", xp::ValueError);
}

TEST_CASE("transform needs its operands on one device") {
  const auto a = xp::ones<float>({2}, xp::cpu(0));
  const auto b = xp::ones<float>({2}, xp::cpu(1));
  CHECK_THROWS_WITH_AS(xp::transform([] XP_HOST_DEVICE(float x, float s, float y) { return x * s + y; }, a, 2.0f, b),
                       "transform: argument 0 is on cpu(0) but argument 2 is on cpu(1)", xp::DeviceMismatchError);
  const auto out = xp::zeros<float>({2}, xp::cpu(1));
  CHECK_THROWS_WITH_AS(xp::transform([] XP_HOST_DEVICE(float x) { return x; }, a, xp::out(out)),
                       "transform: argument 0 is on cpu(0) but argument 1 is on cpu(1)", xp::DeviceMismatchError);
}
