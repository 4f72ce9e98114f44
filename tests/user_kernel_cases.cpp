#include "user_kernel_cases.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>
#include <vector>

#include "element_types.hpp"

namespace {

// x[k] = k % 7 in T: every partial sum of up to 2^21 of them is an integer below 2^24, exact in
// float32, so sums in any order agree exactly.
template <class T>
xp::ndarray<T> sevens(const xp::Shape& shape, xp::Device device) {
  std::vector<T> values(static_cast<std::size_t>(xp::numel(shape)));
  for (std::size_t k = 0; k < values.size(); ++k) values[k] = static_cast<T>(k % 7);
  return xp::array<T>(values, shape, device);
}

template <class T>
std::vector<T> values_of(const xp::ndarray<>& a) {
  return a.as<T>().to_vector();
}

template <class T>
void check_squared_diff(xp::Device device) {
  CAPTURE(xp::dtype_of<T>);
  const auto& squared_diff = xp::elementwise("T x, T y", "T z", "z = (x - y) * (x - y)", "squared_diff");
  const auto x = xp::arange<T>(10, device).reshape({2, 5});
  const auto y = xp::arange<T>(5, device);
  const auto z = squared_diff(x, y);
  CHECK(z.dtype() == xp::dtype_of<T>);
  CHECK(z.shape() == xp::Shape{2, 5});
  const auto w = squared_diff(x, 5);
  if constexpr (std::is_same_v<T, bool>) {
    // arange(10) as bool is [0, 1, 1, ...]; the differences are 0 or +-1.
    CHECK(values_of<bool>(z) == std::vector<bool>{false, false, false, false, false, true, false, false, false, false});
    // 5 as bool is true: (x - 1)^2 is 1 where x is false.
    CHECK(values_of<bool>(w) == std::vector<bool>{true, false, false, false, false, false, false, false, false, false});
  } else {
    CHECK(values_of<T>(z) == std::vector<T>{0, 0, 0, 0, 0, 25, 25, 25, 25, 25});
    CHECK(values_of<T>(w) == std::vector<T>{25, 16, 9, 4, 1, 0, 1, 4, 9, 16});
  }
}

template <class T>
void check_my_sum(xp::Device device) {
  CAPTURE(xp::dtype_of<T>);
  const auto& my_sum = xp::reduce("T x", "T out", "x", "a + b", "out = a", "0", "my_sum");
  // The reference: xp::sum, in its own (wider) type, converted to T as the kernel's wrapping
  // accumulator is for small integers (and as "any true" for bool).
  const auto check = [&](const xp::ndarray<T>& x, const xp::Axes& axes, bool keepdims) {
    const auto got = my_sum(x, xp::axis(axes), xp::keepdims(keepdims));
    const auto want = xp::sum(x, axes, keepdims);
    REQUIRE(got.shape() == want.shape());
    CHECK(values_of<T>(got) == want.template astype<T>().to_vector());
  };
  for (int i = 1; i <= 20; ++i)
    for (std::int64_t n : {(std::int64_t{1} << i) - 1, std::int64_t{1} << i, (std::int64_t{1} << i) + 1}) {
      CAPTURE(n);
      check(sevens<T>(xp::Shape(n), device), std::nullopt, false);
    }
  const auto m = sevens<T>({37, 45}, device);
  check(m, std::nullopt, false);
  check(m, 0, false);
  check(m, 1, true);
  check(m, -1, false);
  check(m.transpose(), 0, false);
  check(m.transpose(), {0, 1}, false);
  const auto t = sevens<T>({2, 4, 3}, device).transpose(1, 2, 0);  // shape (4, 3, 2), strided
  check(t, {0, 1}, false);
  check(t, {1, 2}, false);
  check(t, {0, 1, 2}, true);
  check(sevens<T>({3, 0, 2}, device), 1, false);  // a zero-length reduced axis: the identity
  const auto big = sevens<T>({4, 3, 2, 4, 3, 2, 2}, device);
  const auto kept = my_sum(big, xp::axis({1, 4, 3, 6}), xp::keepdims(true));
  CHECK(kept.shape() == xp::Shape{4, 1, 2, 1, 1, 2, 1});
  check(big, {1, 4, 3, 6}, true);
}

template <class T>
std::vector<unsigned short> bits_of(const xp::ndarray<>& a) {
  std::vector<unsigned short> bits;
  for (const T v : a.as<T>().to_vector()) bits.push_back(v.bits);
  return bits;
}

// 2-byte floats: T binds them; an operation of two computes in float and rounds once, a float
// expression assigned to one rounds once; a fixed float16 parameter, and a float16 scalar.
template <class T>
void check_two_byte_elementwise(xp::Device device) {
  CAPTURE(xp::dtype_of<T>);
  const auto& scaled_diff = xp::elementwise("T x, T y, float32 s", "T z", "z = (x - y) * s", "scaled_diff");
  const std::vector<float> xs{1.5f, 3.1f, -2.0f, 100.7f, 60000.0f}, ys{0.25f, 1.0f, 2.0f, 0.1f, -60000.0f};
  const auto x = xp::array<float>(xs, device).astype<T>(), y = xp::array<float>(ys, device).astype<T>();
  std::vector<unsigned short> want;
  for (std::size_t k = 0; k < xs.size(); ++k) {
    const T difference = T(xs[k]) - T(ys[k]);
    want.push_back(T(static_cast<float>(difference) * 3.0f).bits);
  }
  const auto z = scaled_diff(x, y, 3.0);
  CHECK(z.dtype() == xp::dtype_of<T>);
  CHECK(bits_of<T>(z) == want);
  const auto& halve = xp::elementwise("float32 x, float16 h", "float16 z", "z = x / 2 + h", "halve_to_half");
  const auto halved = halve(xp::array<float>({1.0f, 3.0f, 1e-8f}, device), 0.1);
  CHECK(halved.dtype() == xp::dtype::float16);
  CHECK(bits_of<xp::float16>(halved) ==
        std::vector<unsigned short>{xp::float16(0.5f + static_cast<float>(xp::float16(0.1))).bits,
                                    xp::float16(1.5f + static_cast<float>(xp::float16(0.1))).bits,
                                    xp::float16(0.1).bits});
}

// A float16 or bfloat16 reduction accumulating in float32 (reduce_type), rounded once by the store:
// 3000 ones sum to 3000, where a 2-byte accumulator stops (float16 at 2048).
template <class T>
void check_two_byte_reduction(xp::Device device) {
  CAPTURE(xp::dtype_of<T>);
  xp::KernelOptions in_float;
  in_float.reduce_type = "float32";
  const auto& total = xp::reduce("T x", "T y", "x", "a + b", "y = a", "0", "total_in_float", in_float);
  const auto ones = xp::ones<T>({2, 3000}, device);
  const std::vector<unsigned short> sums = bits_of<T>(total(ones, xp::axis(1)));
  CHECK(sums == std::vector<unsigned short>(2, T(3000.0f).bits));
  // In the 2-byte type itself a + b rounds at every step: in a serial order float16's sum of 3000
  // ones stops at 2048 and bfloat16's at 256; a pairwise order can reach 3000.
  const auto& narrow = xp::reduce("T x", "T y", "x", "a + b", "y = a", "0", "total_in_type");
  const auto narrow_sum = static_cast<float>(narrow(xp::ones<T>({3000}, device)).template as<T>().to_vector()[0]);
  CHECK(narrow_sum <= static_cast<float>(T(3000.0f)));
  CHECK(narrow_sum >= (std::is_same_v<T, xp::float16> ? 2048.0f : 256.0f));
}

// Complex placeholders: NumPy's product and quotient, conj, abs, exp, a complex scalar (cast to the
// parameter's type, as any scalar), against the library's built-in operations.
template <class C>
void check_complex_elementwise(xp::Device device) {
  CAPTURE(xp::dtype_of<C>);
  using R = typename C::value_type;
  const auto x = xp::array<C>({C(1, 2), C(-0.5, 3), C(4, -1), C(0, 0)}, device);
  const auto y = xp::array<C>({C(2, -1), C(0.25, 0.5), C(-3, 2), C(1, 1)}, device);
  const auto& mix = xp::elementwise("T x, T y, T s", "T z", "z = x * y + conj(x) / s - exp(y) * abs(x)", "complex_mix");
  const C s(2, -0.5);
  const auto got = mix(x, y, s).template as<C>().to_vector();
  const auto want = (x * y + xp::conj(x) / s - xp::exp(y) * xp::abs(x)).to_vector();
  REQUIRE(got.size() == want.size());
  for (std::size_t k = 0; k < got.size(); ++k) {
    CAPTURE(k);
    CHECK(std::abs(got[k] - want[k]) <= R(8) * std::numeric_limits<R>::epsilon() * (std::abs(want[k]) + R(1)));
  }
  // log near |z| = 1 and the root of a negative real number, part by part against the built-ins.
  const auto& log_root = xp::elementwise("T x", "T l, T r", "l = log(x); r = sqrt(x)", "complex_log_root");
  const auto near = xp::array<C>({C(R(1) + R(1e-6), R(1e-3)), C(-4, 0), C(0.5, -2)}, device);
  const auto outputs = log_root.outputs(near);
  const std::vector<C> wants[] = {xp::log(near).to_vector(), xp::sqrt(near).to_vector()};
  const R tolerance = R(4) * std::numeric_limits<R>::epsilon();
  for (std::size_t out = 0; out < 2; ++out) {
    const auto got_parts = outputs[out].template as<C>().to_vector();
    for (std::size_t k = 0; k < got_parts.size(); ++k) {
      CAPTURE(out);
      CAPTURE(k);
      CHECK(std::abs(got_parts[k].real() - wants[out][k].real()) <= tolerance * std::abs(wants[out][k].real()));
      CHECK(std::abs(got_parts[k].imag() - wants[out][k].imag()) <= tolerance * std::abs(wants[out][k].imag()));
    }
  }
  // A real part out, and a real scalar converted to the complex parameter.
  const auto& parts = xp::elementwise("T x, T w", "float64 re", "re = real(x * w) + imag(x)", "complex_parts");
  CHECK(parts(x, 2.0).template as<double>().to_vector() == std::vector<double>{4, 2, 7, 0});
}

// A complex ReductionKernel: sum of squares, against the built-in sum.
template <class C>
void check_complex_reduction(xp::Device device) {
  CAPTURE(xp::dtype_of<C>);
  using R = typename C::value_type;
  const auto& squares = xp::reduce("T x", "T y", "x * x", "a + b", "y = a", "0", "complex_squares");
  std::vector<C> values;
  for (int k = 0; k < 600; ++k) values.push_back(C(R(k % 5) - R(2), R(k % 3)));
  const auto x = xp::array<C>(values, device).reshape({3, 200});
  const auto got = squares(x, xp::axis(1)).template as<C>().to_vector();
  CHECK(got == xp::sum(x * x, 1).to_vector());  // small integers: exact in any order
}

}  // namespace

void run_elementwise_cases(xp::Device device) {
  check_complex_elementwise<std::complex<float>>(device);
  check_complex_elementwise<std::complex<double>>(device);
  check_two_byte_elementwise<xp::float16>(device);
  check_two_byte_elementwise<xp::bfloat16>(device);
  for_each_element_type([&]<class T>() { check_squared_diff<T>(device); });

  // Scalars are cast to the parameter's type and bind nothing; arrays bind T.
  const auto& add = xp::elementwise("T x, T y", "T z", "z = x + y", "add_scalar");
  CHECK(add(xp::array<std::int32_t>({1, 2, 3}, device), 2).as<std::int32_t>().to_vector() ==
        std::vector<std::int32_t>{3, 4, 5});
  CHECK(add(2.5, xp::array<float>({1, 2, 3}, device)).as<float>().to_vector() == std::vector<float>{3.5f, 4.5f, 5.5f});
  CHECK(add(xp::array<std::int32_t>({1, 2}, device), 2.75).as<std::int32_t>().to_vector() ==
        std::vector<std::int32_t>{3, 4});  // 2.75 cast to int32
  CHECK(add(xp::array<bool>({true, false}, device), false).as<bool>().to_vector() == std::vector<bool>{true, false});
  CHECK(add(true, xp::array<double>({1, 2}, device)).as<double>().to_vector() == std::vector<double>{2, 3});

  // Raw arrays indexed by hand over `size` elements equal the broadcasting kernel.
  const auto& raw_add = xp::elementwise("raw T x, raw T y", "raw T z", "z[i] = x[i] + y[i]", "raw_add");
  const auto x = xp::arange<float>(100, device), y = xp::arange<float>(100, device) * 3.0f;
  auto z = xp::zeros<float>({100}, device);
  raw_add(x, y, z, xp::size(100));
  CHECK(z.to_vector() == add(x, y).as<float>().to_vector());
  // A raw, non-contiguous input is indexed in C order of its own shape.
  const auto& raw_copy = xp::elementwise("raw T x", "T y", "y = x[i]", "raw_copy");
  const auto square = xp::arange<float>(6, device).reshape({2, 3});
  auto copied = xp::zeros<float>({6}, device);
  raw_copy(square.transpose(), copied);
  CHECK(copied.to_vector() == std::vector<float>{0, 3, 1, 4, 2, 5});

  // i and _ind: the loop position and size.
  const auto& positions = xp::elementwise("T x", "int64 p", "p = i * 100 + _ind.size()", "positions");
  CHECK(positions(xp::zeros<float>({2, 2}, device)).as<std::int64_t>().to_vector() ==
        std::vector<std::int64_t>{4, 104, 204, 304});

  // Several outputs, a fixed output type and a preamble.
  xp::KernelOptions options;
  options.preamble = "template <class U> XPJ_DEVICE U twice(U v) { return v + v; }";
  const auto& split =
      xp::elementwise("T x", "T doubled, float64 half", "doubled = twice(x); half = x / 2.0", "split", options);
  const auto outs = split.outputs(xp::array<std::int16_t>({1, 3}, device));
  REQUIRE(outs.size() == 2);
  CHECK(outs[0].as<std::int16_t>().to_vector() == std::vector<std::int16_t>{2, 6});
  CHECK(outs[1].as<double>().to_vector() == std::vector<double>{0.5, 1.5});
  const auto again = split.outputs(xp::array<std::int16_t>({5, -7}, device));  // the call's plan, reused
  CHECK(again[0].as<std::int16_t>().to_vector() == std::vector<std::int16_t>{10, -14});
  CHECK(again[1].as<double>().to_vector() == std::vector<double>{2.5, -3.5});
  CHECK_THROWS_WITH_AS(split(xp::array<std::int16_t>({1, 3}, device)),
                       "kernel split has 2 outputs: call outputs(...) to get all of them", xp::ValueError);

  // loop_prep and after_loop run around the loop, in the kernel's scope.
  xp::KernelOptions around;
  around.loop_prep = "const T offset = 10;";
  const auto& shifted = xp::elementwise("T x", "T y", "y = x + offset", "shifted", around);
  CHECK(shifted(xp::array<float>({1, 2}, device)).as<float>().to_vector() == std::vector<float>{11, 12});

  // Strided and broadcast operands into a given, strided output.
  auto target = xp::zeros<double>({3, 4}, device);
  add(xp::arange<double>(3, device).reshape({3, 1}), xp::arange<double>(4, device), target);
  CHECK(target.to_vector() == std::vector<double>{0, 1, 2, 3, 1, 2, 3, 4, 2, 3, 4, 5});
  auto transposed_out = xp::zeros<double>({4, 3}, device);
  add(xp::arange<double>(3, device).reshape({3, 1}), xp::arange<double>(4, device), transposed_out.transpose());
  CHECK(transposed_out.to_vector() == std::vector<double>{0, 1, 2, 1, 2, 3, 2, 3, 4, 3, 4, 5});
  // reduce_dims = false keeps every axis of the loop: the same values through the strided walk.
  xp::KernelOptions every_axis;
  every_axis.reduce_dims = false;
  const auto& plus_i = xp::elementwise("T x", "T y", "y = x + i", "plus_i", every_axis);
  CHECK(plus_i(xp::ones<float>({2, 3}, device)).as<float>().to_vector() == std::vector<float>{1, 2, 3, 4, 5, 6});
  // A zero-size loop runs nothing and returns empty outputs.
  CHECK(add(xp::zeros<float>({0, 3}, device), 1.0f).shape() == xp::Shape{0, 3});

  // The math of <math.h> as CUDA has it, in float and in double, f-suffixed names too.
  const auto& math = xp::elementwise(
      "T x", "T y",
      "y = sqrt(x) + exp(-x) + log1p(x) + pow(x, T(2)) + fabs(-x) + floor(x) + tanh(x) + atan2(x, T(1)) + "
      "fmin(x, T(0.5)) + cbrt(x) + hypot(x, T(3)) + (isnan(x) ? T(100) : T(0)) + copysign(T(1), -x) + abs(-x)",
      "prelude_math");
  const auto reference = [](double v) {
    return std::sqrt(v) + std::exp(-v) + std::log1p(v) + v * v + v + std::floor(v) + std::tanh(v) + std::atan2(v, 1.0) +
           std::fmin(v, 0.5) + std::cbrt(v) + std::hypot(v, 3.0) + (std::isnan(v) ? 100 : 0) - 1 + v;
  };
  const std::vector<double> inputs{0.25, 1.0, 2.5, 7.0};
  const std::vector<double> doubles = math(xp::array<double>(inputs, device)).as<double>().to_vector();
  const std::vector<float> floats =
      math(xp::array<float>(std::vector<float>(inputs.begin(), inputs.end()), device)).as<float>().to_vector();
  for (std::size_t k = 0; k < inputs.size(); ++k) {
    CHECK(doubles[k] == doctest::Approx(reference(inputs[k])).epsilon(1e-14));
    CHECK(floats[k] == doctest::Approx(reference(inputs[k])).epsilon(1e-6));
  }
  const auto& float_names =
      xp::elementwise("float32 x", "float32 y", "y = sqrtf(x) + expf(x) + powf(x, 2.0f)", "prelude_f");
  CHECK(float_names(xp::array<float>({4.0f}, device)).as<float>().item() ==
        doctest::Approx(2 + std::exp(4.0) + 16).epsilon(1e-6));

  // float forms beside double ones, and integers computed as double (sqrt(n)), as <cmath> has them.
  const auto& mixed = xp::elementwise(
      "float32 x, int32 n", "float64 z",
      "z = sqrtf(x) + pow(x, 2.0f) + fabs(-x) + rsqrt(x) + fma(x, x, 1.0f) + (isnan(x) ? 100 : 0) + exp2(x) + "
      "copysign(1.0f, -x) + llround(x) + min(x, 1.0f) + max(x, 1.0f) + abs(-n) + sqrt(n) + pow(n, 2)",
      "math_functions");
  const std::vector<float> xs{0.25f, 2.0f, 6.5f};
  const std::vector<int> ns{4, 9, 16};
  const std::vector<double> got =
      mixed(xp::array<float>(xs, device), xp::array<int>(ns, device)).as<double>().to_vector();
  for (std::size_t k = 0; k < xs.size(); ++k) {
    const double v = xs[k], n = ns[k];
    const double want = std::sqrt(v) + v * v + v + 1 / std::sqrt(v) + (v * v + 1) + std::exp2(v) - 1 +
                        static_cast<double>(std::llround(v)) + std::min(v, 1.0) + std::max(v, 1.0) + n + std::sqrt(n) +
                        n * n;
    CHECK(got[k] == doctest::Approx(want).epsilon(1e-6));
  }
  run_jit_ufunc_cases(device);
}

void run_reduction_cases(xp::Device device) {
  const auto& l2norm = xp::reduce("T x", "T y", "x * x", "a + b", "y = sqrt(a)", "0", "l2norm");
  // Without an identity, reducing nothing is an error even where there is no output, as NumPy's max.
  const auto& largest = xp::reduce("T x", "T y", "x", "max(a, b)", "y = a", "", "largest");
  CHECK_THROWS_WITH_AS(largest(xp::zeros<float>({0, 0}, device), xp::axis(0)),
                       doctest::Contains("zero-size array to reduction operation largest which has no identity"),
                       xp::ValueError);
  CHECK(largest(xp::zeros<float>({0, 3}, device), xp::axis(1)).shape() == xp::Shape{0});
  CHECK(l2norm(xp::zeros<float>({0, 0}, device), xp::axis(0)).shape() == xp::Shape{0});
  const auto x32 = xp::arange<float>(10, device).reshape({2, 5});
  const auto n32 = l2norm(x32, xp::axis(1)).as<float>().to_vector();
  REQUIRE(n32.size() == 2);
  CHECK(n32[0] == doctest::Approx(5.477226f).epsilon(1e-6));
  CHECK(n32[1] == doctest::Approx(15.9687195f).epsilon(1e-6));
  const auto n64 = l2norm(xp::arange<double>(10, device).reshape({2, 5}), xp::axis(1)).as<double>().to_vector();
  CHECK(n64[0] == doctest::Approx(std::sqrt(30.0)).epsilon(1e-14));
  CHECK(n64[1] == doctest::Approx(std::sqrt(255.0)).epsilon(1e-14));

  for_each_element_type([&]<class T>() { check_my_sum<T>(device); });
  check_two_byte_reduction<xp::float16>(device);
  check_complex_reduction<std::complex<float>>(device);
  check_complex_reduction<std::complex<double>>(device);
  check_two_byte_reduction<xp::bfloat16>(device);

  // Without an identity the first element starts each reduction: max of negative numbers.
  const auto& my_max = xp::reduce("T x", "T y", "x", "max(a, b)", "y = a", "", "my_max");
  CHECK(my_max(xp::array<float>({{-5, -2, -9}, {-1, -7, -3}}, device), xp::axis(1)).as<float>().to_vector() ==
        std::vector<float>{-2, -1});
  // Two inputs broadcast together; _i and _j see the output and input positions; the reduction
  // type is wider than the inputs'.
  xp::KernelOptions wide;
  wide.reduce_type = "int64";
  const auto& dot = xp::reduce("T x, T y", "int64 d", "x * y", "a + b", "d = a", "0", "dot", wide);
  const auto rows = xp::array<std::int8_t>({{100, 100}, {-100, 50}}, device);
  CHECK(dot(rows, xp::array<std::int8_t>({100, 2}, device), xp::axis(1)).as<std::int64_t>().to_vector() ==
        std::vector<std::int64_t>{10200, -9900});
  const auto& positions = xp::reduce("T x", "int64 y", "_j * 10 + _i", "a + b", "y = a", "0", "positions");
  // Output i of a (3, 2) array reduced over axis 0 sums _j * 10 + _i with _j = r * 2 + i.
  CHECK(positions(xp::zeros<float>({3, 2}, device), xp::axis(0)).as<std::int64_t>().to_vector() ==
        std::vector<std::int64_t>{0 + 20 + 40, 11 + 31 + 51});
  // _in_ind and _out_ind know the sizes; _J is the thread's lane in its block: 0 on CPUs, and on GPUs
  // reduced position r (of 3) is thread r's.
  const auto& sizes = xp::reduce("T x", "int64 y", "_in_ind.size() * 100 + _out_ind.size() + _J * 1000", "a + b",
                                 "y = a", "0", "sizes");
  const std::int64_t lanes = device.is_host() ? 0 : 3000;
  CHECK(sizes(xp::zeros<float>({3, 2}, device), xp::axis(0)).as<std::int64_t>().to_vector() ==
        std::vector<std::int64_t>(2, 1806 + lanes));
  // reduce_dims = false: the (2, 3, 4) input reduced over its last two axes without merging them.
  xp::KernelOptions every_axis;
  every_axis.reduce_dims = false;
  const auto& unmerged = xp::reduce("T x", "T y", "x", "a + b", "y = a", "0", "unmerged", every_axis);
  CHECK(unmerged(xp::arange<double>(24, device).reshape({2, 3, 4}), xp::axis({1, 2})).as<double>().to_vector() ==
        std::vector<double>{66, 210});
}
