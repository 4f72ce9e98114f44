// float16 and bfloat16 arrays on every device: creation, conversions, printing as NumPy prints them,
// arithmetic and functions computed in float32 and rounded once, reductions accumulated in float32,
// products, random numbers, DLPack and parameter files. Expected values are the float32 result
// rounded by the scalar types (themselves checked bit for bit in test_element_types.cpp).
#include <doctest/doctest.h>

#include <unistd.h>
#include <cmath>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "device_cases.hpp"
#include "xp/dlpack.hpp"
#include "xp/serialization.hpp"

namespace {

template <class T>
std::vector<float> as_floats(const xp::ndarray<T>& a) {
  std::vector<float> out;
  for (const T v : a.to_vector()) out.push_back(static_cast<float>(v));
  return out;
}

template <class T>
std::vector<T> rounded(const std::vector<float>& values) {
  std::vector<T> out;
  for (const float v : values) out.push_back(T(v));
  return out;
}

template <class T>
std::vector<unsigned short> bits_of(const std::vector<T>& values) {
  std::vector<unsigned short> out;
  for (const T v : values) out.push_back(v.bits);
  return out;
}

// Runs f for float16, then bfloat16.
template <class F>
void for_each_two_byte_float(F&& f) {
  f.template operator()<xp::float16>();
  f.template operator()<xp::bfloat16>();
}

std::string printed(const xp::ndarray<>& a) {
  std::ostringstream text;
  text << a;
  return text.str();
}

}  // namespace

TEST_CASE("float16 and bfloat16 dtypes: names, sizes, promotion") {
  CHECK(xp::dtype_name(xp::dtype::float16) == "float16");
  CHECK(xp::dtype_name(xp::dtype::bfloat16) == "bfloat16");
  CHECK(xp::itemsize(xp::dtype::float16) == 2);
  CHECK(xp::itemsize(xp::dtype::bfloat16) == 2);
  CHECK(xp::is_floating(xp::dtype::float16));
  CHECK(xp::dtype_of<xp::bfloat16> == xp::dtype::bfloat16);
  using xp::dtype;
  CHECK(xp::promote_types(dtype::float16, dtype::float32) == dtype::float32);
  CHECK(xp::promote_types(dtype::bfloat16, dtype::float64) == dtype::float64);
  CHECK(xp::promote_types(dtype::float16, dtype::bfloat16) == dtype::float32);  // neither holds the other
  CHECK(xp::promote_types(dtype::bfloat16, dtype::int8) == dtype::bfloat16);
  CHECK(xp::promote_types(dtype::int32, dtype::float16) == dtype::float16);  // as float32 + int32 -> float32
  CHECK(xp::promote_types(dtype::bool_, dtype::float16) == dtype::float16);
  CHECK(xp::promote_with_scalar(dtype::float16, xp::ScalarKind::float64) == dtype::float16);
  CHECK(xp::float_compute_type(dtype::bfloat16) == dtype::bfloat16);
}

XP_TEST_ON_DEVICES("float16 and bfloat16: creation and conversions round once, overflow is infinity") {
  for_each_two_byte_float([&]<class T>() {
    CAPTURE(xp::dtype_of<T>);
    const auto z = xp::zeros<T>({2, 3}, device);
    CHECK(z.dtype() == xp::dtype_of<T>);
    CHECK(z.nbytes() == 12);
    CHECK(as_floats(z) == std::vector<float>(6, 0.0f));
    CHECK(as_floats(xp::ones<T>({3}, device)) == std::vector<float>(3, 1.0f));
    CHECK(as_floats(xp::full<T>({2}, T(2.5f), device)) == std::vector<float>{2.5f, 2.5f});
    CHECK(as_floats(xp::arange<T>(0, 4, 1, device)) == std::vector<float>{0, 1, 2, 3});

    const std::vector<float> values{0.1f, -3.14159f, 1e-6f, 70000.0f, -3e38f * 10.0f, 257.0f, 65519.0f};
    const auto x = xp::array<float>(values, device);
    const auto h = x.astype<T>();
    CHECK(bits_of(h.to_vector()) == bits_of(rounded<T>(values)));
    const std::vector<float> back = as_floats(h);
    CHECK(h.template astype<float>().to_vector() == back);  // every 2-byte value is a float: exact
    CHECK(std::isinf(back[4]));
    CHECK(h.template astype<std::int32_t>().to_vector()[1] == -3);  // truncated toward zero, as NumPy
    CHECK(xp::array<std::int64_t>({-7, 300}, device).astype<T>().template astype<float>().to_vector() ==
          std::vector<float>{-7.0f, 300.0f});
  });
  // float16 -> bfloat16: float16's 11 significant bits rounded to 8.
  const auto h = xp::array<float>({1.0009765625f, 3.0f}, device).astype<xp::float16>();
  CHECK(as_floats(h.astype<xp::bfloat16>()) == std::vector<float>{1.0f, 3.0f});
  CHECK(std::isinf(as_floats(xp::full<float>({1}, 70000.0f, device).astype<xp::float16>())[0]));
  CHECK(as_floats(xp::full<float>({1}, 70000.0f, device).astype<xp::bfloat16>())[0] == 70144.0f);
}

XP_TEST_ON_DEVICES("float16 and bfloat16 print as NumPy prints them") {
  CHECK(printed(xp::full<xp::float16>({3}, xp::float16(0.1f), device)).starts_with("[0.1 0.1 0.1]\n"));
  CHECK(printed(xp::array<float>({1e-5f, 1.0f}, device).astype<xp::float16>()).starts_with("[1.e-05 1.e+00]\n"));
  CHECK(printed(xp::array<float>({65504.0f, -2.5f, 0.000123f}, device).astype<xp::float16>())
            .starts_with("[ 6.55e+04 -2.50e+00  1.23e-04]\n"));
  CHECK(printed(xp::array<float>({INFINITY, 1.5f, NAN}, device).astype<xp::float16>()).starts_with("[inf 1.5 nan]\n"));
  CHECK(printed(xp::array<float>({3.14159f}, device).astype<xp::float16>()).starts_with("[3.14]\n"));
  CHECK(printed(xp::full<xp::float16>({}, xp::float16(0.1f), device)).starts_with("0.1\n"));
  // bfloat16 as ml_dtypes 0.6 prints it (NumPy has no bfloat16): %g of each element, unpadded.
  CHECK(printed(xp::array<float>({0.1f, 3.14159f}, device).astype<xp::bfloat16>()).starts_with("[0.100098 3.14062]\n"));
  CHECK(printed(xp::array<float>({{1, -2.5f}, {100, 0.001f}}, device).astype<xp::bfloat16>())
            .starts_with("[[1 -2.5]\n [100 0.000999451]]\n"));
  CHECK(printed(xp::array<float>({INFINITY, NAN, -0.0f}, device).astype<xp::bfloat16>()).starts_with("[inf nan -0]\n"));
  CHECK(printed(xp::full<xp::bfloat16>({}, xp::bfloat16(3.14159f), device)).starts_with("3.14062\n"));
}

XP_TEST_ON_DEVICES("float16 and bfloat16 arithmetic computes in float32 and rounds once per operation") {
  for_each_two_byte_float([&]<class T>() {
    CAPTURE(xp::dtype_of<T>);
    const std::vector<float> a_values{0.1f, 60000.0f, -2.5f, 1e-3f}, b_values{0.2f, 60000.0f, 4.0f, 3.0f};
    const auto a = xp::array<float>(a_values, device).astype<T>(), b = xp::array<float>(b_values, device).astype<T>();
    const std::vector<T> av = a.to_vector(), bv = b.to_vector();
    std::vector<float> sum, product, quotient;
    for (std::size_t k = 0; k < av.size(); ++k) {
      sum.push_back(static_cast<float>(av[k]) + static_cast<float>(bv[k]));
      product.push_back(static_cast<float>(av[k]) * static_cast<float>(bv[k]));
      quotient.push_back(static_cast<float>(av[k]) / static_cast<float>(bv[k]));
    }
    const auto s = a + b;
    CHECK(s.dtype() == xp::dtype_of<T>);
    CHECK(bits_of(s.to_vector()) == bits_of(rounded<T>(sum)));
    CHECK(bits_of((a * b).to_vector()) == bits_of(rounded<T>(product)));
    CHECK(bits_of((a / b).to_vector()) == bits_of(rounded<T>(quotient)));
    CHECK((a < b).to_vector() == std::vector<bool>{true, false, true, true});
    const auto scaled = a * 2.0;  // a weak scalar: the array's dtype
    CHECK(scaled.dtype() == xp::dtype_of<T>);
    const auto wide = a + xp::array<float>(b_values, device);
    CHECK(wide.dtype() == xp::dtype::float32);
    xp::ndarray<T> out = xp::zeros<T>({4}, device);
    xp::add(a, b, out);
    CHECK(bits_of(out.to_vector()) == bits_of(rounded<T>(sum)));
  });
  // float16's largest is 65504: 60000 + 60000 overflows to infinity without an error, as NumPy's.
  const auto big = xp::full<xp::float16>({1}, xp::float16(60000.0f), device);
  CHECK(std::isinf(as_floats(big + big)[0]));
}

// Every bit pattern, every layout the loops take (large and contiguous, a tail, an offset start,
// strided, in place, scalars, small), against the float32 result rounded by the scalar types.
XP_TEST_ON_DEVICES("float16 and bfloat16 loops read every value exactly and round every result once") {
  for_each_two_byte_float([&]<class T>() {
    CAPTURE(xp::dtype_of<T>);
    std::vector<T> patterns;
    for (unsigned bits = 0; bits < 65536; ++bits) patterns.push_back(T::from_bits(static_cast<unsigned short>(bits)));
    const auto all = xp::array<T>(patterns, device);
    // x * 1 is x for every value (NaNs stay NaN); a view from element 1 starts unaligned, with a tail.
    const std::vector<T> once = (all(xp::slice(1, {})) * 1.0).to_vector();
    for (std::size_t k = 0; k < once.size(); ++k) {
      const T want = patterns[k + 1];
      if (static_cast<float>(want) != static_cast<float>(want)) CHECK(std::isnan(static_cast<float>(once[k])));
      else if (once[k].bits != want.bits) FAIL_CHECK("bits " << want.bits << " read back as " << once[k].bits);
    }
    CHECK(bits_of(all.template astype<float>().template astype<T>()(xp::slice(0, 31744)).to_vector()) ==
          bits_of(std::vector<T>(patterns.begin(), patterns.begin() + 31744)));

    xp::random::seed(7);
    const auto a = xp::random::uniform<float>(-3, 3, {100003}, device).astype<T>();
    const auto b = xp::random::uniform<float>(0.5, 9, {100003}, device).astype<T>();
    const std::vector<T> av = a.to_vector(), bv = b.to_vector();
    const float tenth = static_cast<float>(T(0.1));  // a weak scalar takes the array's type first
    std::vector<float> sum, quotient, scaled, squared, strided;
    std::vector<bool> less;
    for (std::size_t k = 0; k < av.size(); ++k) {
      const float x = static_cast<float>(av[k]), y = static_cast<float>(bv[k]);
      sum.push_back(x + y);
      quotient.push_back(x / y);
      scaled.push_back(x * tenth);
      const float d = static_cast<float>(T(x - y));
      squared.push_back(d * d);
      if (k % 2 == 0) strided.push_back(std::max(x, y));
      less.push_back(x < y);
    }
    CHECK(bits_of((a + b).to_vector()) == bits_of(rounded<T>(sum)));
    CHECK(bits_of((a / b).to_vector()) == bits_of(rounded<T>(quotient)));
    CHECK(bits_of((a * 0.1).to_vector()) == bits_of(rounded<T>(scaled)));
    CHECK((a < b).to_vector() == less);
    const auto every_other = xp::slice(0, {}, 2);
    CHECK(bits_of(xp::maximum(a(every_other), b(every_other)).to_vector()) == bits_of(rounded<T>(strided)));
    auto d = a - b;
    xp::multiply(d, d, d);  // in place
    CHECK(bits_of(d.to_vector()) == bits_of(rounded<T>(squared)));
    auto small = xp::zeros<T>({5}, device);
    xp::add(a(xp::slice(0, 5)), b(xp::slice(0, 5)), small);
    CHECK(bits_of(small.to_vector()) == bits_of(rounded<T>(std::vector<float>(sum.begin(), sum.begin() + 5))));
    // An output of another dtype receives the rounded result, converted.
    auto wide = xp::zeros<float>({100003}, device);
    xp::add(a, b, wide);
    CHECK(wide.to_vector() == as_floats(xp::ndarray<T>(a + b)));
  });
}

XP_TEST_ON_DEVICES("float16 and bfloat16 functions: float32 results rounded once") {
  for_each_two_byte_float([&]<class T>() {
    CAPTURE(xp::dtype_of<T>);
    const auto x = xp::array<float>({0.5f, 2.0f, 9.0f, 0.01f}, device).astype<T>();
    const std::vector<T> xv = x.to_vector();
    const auto e = xp::exp(x), r = xp::sqrt(x);
    CHECK(e.dtype() == xp::dtype_of<T>);
    const std::vector<float> ev = as_floats(e), rv = as_floats(r);
    for (std::size_t k = 0; k < xv.size(); ++k) {
      // GPUs' expf may differ from the host's by an ulp of float32: at most one 2-byte step after rounding.
      const float want = static_cast<float>(T(std::exp(static_cast<float>(xv[k]))));
      CHECK(std::fabs(ev[k] - want) <= std::fabs(want) * 0.008f);
      CHECK(rv[k] == static_cast<float>(T(std::sqrt(static_cast<float>(xv[k])))));
    }
  });
}

XP_TEST_ON_DEVICES("float16 and bfloat16 reductions accumulate in float32 and round once") {
  // 3000 ones: a float16 accumulator stops at 2048 (2048 + 1 rounds back); float32 reaches 3000.
  const auto ones = xp::ones<xp::float16>({3000}, device);
  const auto total = xp::sum(ones);
  CHECK(total.dtype() == xp::dtype::float16);
  CHECK(static_cast<float>(total.item()) == 3000.0f);
  const auto m = xp::array<float>({{1.0f, 2.0f, 4.0f}, {0.5f, 8.0f, -1.0f}}, device).astype<xp::bfloat16>();
  CHECK(as_floats(xp::sum(m, 1)) == std::vector<float>{7.0f, 7.5f});
  CHECK(as_floats(xp::mean(m, 0)) == std::vector<float>{0.75f, 5.0f, 1.5f});
  CHECK(xp::mean(m).dtype() == xp::dtype::bfloat16);
  CHECK(as_floats(xp::max(m, 1)) == std::vector<float>{4.0f, 8.0f});
  CHECK(xp::argmax(m, 1).to_vector() == std::vector<std::int64_t>{2, 1});
  CHECK(static_cast<float>(xp::min(m).item()) == -1.0f);
}

XP_TEST_ON_DEVICES("float16 and bfloat16 products: float32 accumulation, rounded once") {
  for_each_two_byte_float([&]<class T>() {
    CAPTURE(xp::dtype_of<T>);
    const auto a = xp::array<float>({{1.5f, 2.0f, -1.0f}, {0.25f, 3.0f, 2.0f}}, device).astype<T>();
    const auto b = xp::array<float>({{2.0f, 1.0f}, {0.5f, -4.0f}, {8.0f, 0.125f}}, device).astype<T>();
    const auto c = xp::matmul(a, b);
    CHECK(c.dtype() == xp::dtype_of<T>);
    CHECK(as_floats(c) == std::vector<float>{-4.0f, -6.625f, 18.0f, -11.5f});
    // 3000 products of ones: a 2-byte accumulator would stop at 2048 (float16) or 256 (bfloat16).
    const auto total = xp::matmul(xp::ones<T>({1, 3000}, device), xp::ones<T>({3000, 1}, device));
    CHECK(as_floats(total) == std::vector<float>{static_cast<float>(T(3000.0f))});
    // A stack against a broadcast matrix: the batched calls.
    const auto stack = xp::matmul(xp::stack({a, a * 2.0}), b);
    CHECK(as_floats(stack) == std::vector<float>{-4.0f, -6.625f, 18.0f, -11.5f, -8.0f, -13.25f, 36.0f, -23.0f});
  });
}

XP_TEST_ON_DEVICES("float16 and bfloat16 random numbers are float32's, rounded once") {
  xp::random::seed(7);
  const auto wide = xp::random::uniform<float>(0.0f, 1.0f, {64}, device);
  xp::random::seed(7);
  const auto half = xp::random::uniform<xp::float16>(0, 1, {64}, device);
  CHECK(half.dtype() == xp::dtype::float16);
  CHECK(bits_of(half.to_vector()) == bits_of(rounded<xp::float16>(wide.to_vector())));
  xp::random::seed(8);
  const auto normal = xp::random::normal<xp::bfloat16>(0, 1, {1000}, device);
  const float mean = static_cast<float>(xp::mean(normal).item());
  CHECK(std::fabs(mean) < 0.15f);
}

TEST_CASE("float16 and bfloat16 go through DLPack and parameter files") {
  const auto h = xp::array<float>({0.1f, -2.0f, 65504.0f}).astype<xp::float16>();
  const auto b = xp::array<float>({0.1f, -2.0f, 3e38f}).astype<xp::bfloat16>();
  for (const xp::ndarray<>& a : {xp::ndarray<>(h), xp::ndarray<>(b)}) {
    DLManagedTensorVersioned* managed = xp::to_dlpack(a);
    CHECK(managed->dl_tensor.dtype.bits == 16);
    CHECK(managed->dl_tensor.dtype.code == (a.dtype() == xp::dtype::float16 ? kDLFloat : kDLBfloat));
    const xp::ndarray<> back = xp::from_dlpack(managed);
    CHECK(back.dtype() == a.dtype());
    CHECK(back.raw_data() == a.raw_data());
  }
  const std::filesystem::path path =
      std::filesystem::temp_directory_path() / ("xp-two-byte-" + std::to_string(::getpid()) + ".params");
  xp::save(path, {{"h", xp::ndarray<>(h)}, {"b", xp::ndarray<>(b)}});
  const xp::NamedArrays loaded = xp::load(path);
  std::filesystem::remove(path);
  REQUIRE(loaded.size() == 2);
  CHECK(loaded[0].second.dtype() == xp::dtype::float16);
  CHECK(bits_of(loaded[0].second.as<xp::float16>().to_vector()) == bits_of(h.to_vector()));
  CHECK(loaded[1].second.dtype() == xp::dtype::bfloat16);
  CHECK(bits_of(loaded[1].second.as<xp::bfloat16>().to_vector()) == bits_of(b.to_vector()));
}

XP_TEST_ON_DEVICES("float16 and bfloat16 gradients: autograd records them as floats") {
  for_each_two_byte_float([&]<class T>() {
    CAPTURE(xp::dtype_of<T>);
    auto x = xp::array<float>({1.0f, -2.0f, 0.5f}, device).astype<T>();
    x.attach_grad();
    {
      xp::autograd::record recording;
      auto y = xp::sum(x * x);
      y.backward();
    }
    CHECK(x.grad().dtype() == xp::dtype_of<T>);
    CHECK(as_floats(x.grad()) == std::vector<float>{2.0f, -4.0f, 1.0f});
    auto w = xp::array<float>({{1.0f, 2.0f}, {3.0f, 4.0f}}, device).astype<T>();
    w.attach_grad();
    {
      xp::autograd::record recording;
      auto z = xp::sum(xp::matmul(w, w));
      z.backward();
    }
    // d/dw sum(w w) = ones . w^T + w^T . ones
    CHECK(as_floats(w.grad()) == std::vector<float>{7.0f, 11.0f, 9.0f, 13.0f});
  });
}
