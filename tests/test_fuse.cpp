// xp::fuse: fused expressions against the same functions unfused, bit for bit, over dtypes, shapes,
// broadcasting and views, with a trailing reduction; the traces (dtypes, errors at trace time, one per
// binding); the printed kernel, run by the host compiler, against the fused run; autograd.
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "core/fusion_graph.hpp"
#include "device_cases.hpp"
#include "printed_fusion.hpp"
#include "xp/fuse.hpp"
#include "xp/xp.hpp"

namespace {

std::vector<unsigned char> bytes_of(const xp::ndarray<>& a) {
  std::vector<unsigned char> bytes(a.size() * xp::itemsize(a.dtype()));
  xp::detail::copy_to_host(a, bytes.data());
  return bytes;
}

// Distinct values of both signs, as `type` (integers: -7 to 8).
xp::ndarray<> values(xp::Shape shape, xp::dtype type, xp::Device device, double phase = 0) {
  const auto n = static_cast<double>(xp::numel(shape));
  const xp::ndarray<double> x = xp::sin(xp::arange<double>(0, n, 1, device) * 1.3 + phase) * 4;
  const bool integral = !xp::detail::is_inexact_dtype(type);
  return xp::ndarray<>(integral ? xp::ndarray<double>(xp::rint(x * 2)) : x).astype(type).reshape(shape);
}

template <class F, class... A>
void check_same_bits(const char* what, const F& function, const A&... arrays) {
  const std::string name(what);  // INFO prints a const char* as its address
  INFO(name);
  const auto fused = xp::fuse(function);
  const xp::ndarray<> got = fused(arrays...);
  const xp::ndarray<> want(function(arrays...));
  REQUIRE(got.dtype() == want.dtype());
  REQUIRE(got.shape() == want.shape());
  CHECK(got.device() == want.device());
  CHECK(bytes_of(got) == bytes_of(want));
}

const auto exp_chain = [](auto z, auto y) { return xp::exp(z + 2) * y; };
const auto squared_distance = [](auto x, auto y) { return xp::sum((x - y) * (x - y)); };

}  // namespace

XP_TEST_ON_DEVICES("fuse: exp(z + 2) * y equals the three unfused operations bit for bit, every size and layout") {
  for (const xp::dtype type : {xp::dtype::float32, xp::dtype::float64}) {
    for (const xp::Shape& shape : {xp::Shape{7}, xp::Shape{3, 1000}, xp::Shape{70001}, xp::Shape{0}}) {
      const auto z = values(shape, type, device), y = values(shape, type, device, 0.5);
      check_same_bits("contiguous", exp_chain, z, y);
    }
    const auto z = values({40, 30}, type, device), y = values({30}, type, device, 0.5);
    check_same_bits("broadcast", exp_chain, z, y);
    check_same_bits("transposed view", exp_chain, z.transpose(), values({30, 40}, type, device, 1));
    check_same_bits("0-d argument", exp_chain, z, values({}, type, device, 2));
  }
}

XP_TEST_ON_DEVICES("fuse: functions, comparisons, where and mixed dtypes equal the unfused calls bit for bit") {
  using xp::dtype;
  const auto f32 = values({5000}, dtype::float32, device), g32 = values({5000}, dtype::float32, device, 0.7);
  const auto f64 = values({5000}, dtype::float64, device, 0.2), i32 = values({5000}, dtype::int32, device, 0.3);
  const auto u8 = values({5000}, dtype::int16, device, 0.4).astype(dtype::uint8);
  check_same_bits(
      "where/sqrt/negative", [](auto x, auto y) { return xp::where(x > 0, xp::sqrt(x), -x * 0.5f) + y; }, f32, g32);
  check_same_bits(
      "transcendentals", [](auto x, auto y) { return xp::tanh(x) + xp::sigmoid(y) * xp::log1p(xp::abs(x)); }, f64, f64);
  check_same_bits(
      "arctan2, hypot, power", [](auto x, auto y) { return xp::power(xp::hypot(x, y), 1.5) - xp::arctan2(y, x); }, f32,
      g32);
  check_same_bits("int32 with float64", [](auto i, auto x) { return i * 3 + x / 7; }, i32, f64);
  check_same_bits(
      "integer division", [](auto i, auto j) { return xp::floor_divide(i, j + 9) + xp::mod(i, 4) * j; }, i32, i32);
  check_same_bits("bits and shifts", [](auto a, auto b) { return (a & 12) | ((b >> 1) ^ ~a); }, u8, u8);
  check_same_bits(
      "comparisons to bool", [](auto x, auto y) { return xp::logical_and(x < y, xp::isfinite(x)) || x == 0; }, f32,
      g32);
  check_same_bits(
      "clip, rounding", [](auto x, auto y) { return xp::clip(xp::rint(x * 3), -4.0, 4.0) + xp::floor(y); }, f64, f64);
  check_same_bits(
      "frexp, modf, ldexp", [](auto x, auto i) { return xp::ldexp(xp::frexp(x).first + xp::modf(x).first, i); }, f32,
      i32);
  const auto h16 = f32.astype(dtype::float16), b16 = g32.astype(dtype::bfloat16);
  check_same_bits(
      "float16 rounds each operation", [](auto x, auto y) { return xp::exp(x * 0.3f) / (y + 5) - x; }, h16, h16);
  check_same_bits("bfloat16 with float16 is float32", [](auto x, auto y) { return x * y + 1; }, h16, b16);
  const auto c64 = (f32 + g32 * std::complex<float>(0, 1)).astype(dtype::complex64);
  check_same_bits(
      "complex", [](auto c, auto x) { return xp::abs(c * xp::conj(c) + x) + xp::real(xp::exp(c)); }, c64, f32);
  const auto b = f32 > 0;
  check_same_bits("bool arithmetic", [](auto p, auto q) { return p + q * 2; }, b, b);
  check_same_bits("an argument as it is", [](auto x, auto) { return x; }, f32, g32);
}

XP_TEST_ON_DEVICES("fuse: astype and around trace what the unfused calls do, bit for bit") {
  using xp::dtype;
  const auto f32 = values({5000}, dtype::float32, device), f64 = values({5000}, dtype::float64, device, 0.2);
  const auto i32 = values({5000}, dtype::int32, device, 0.3) * 37, c64 = f32.astype(dtype::complex64);
  check_same_bits("astype down and up", [](auto x, auto i) { return (x * 3).astype(dtype::int16) + i; }, f32, i32);
  check_same_bits(
      "astype to float16 and bool",
      [](auto x, auto) { return x.astype(dtype::float16) * 2 + (x > 0).astype(dtype::int8); }, f64, f64);
  check_same_bits("astype to its own dtype", [](auto x, auto) { return x.astype(dtype::float32); }, f32, f32);
  for (const int decimals : {0, 2, -1}) {
    CAPTURE(decimals);
    const auto rounded = [decimals](auto x, auto) { return xp::around(x * 10, decimals); };
    check_same_bits("around float32", rounded, f32, f32);
    check_same_bits("around float64", rounded, f64, f64);
    check_same_bits("around int32 (in float64 for negative decimals)", rounded, i32, i32);
    check_same_bits("around complex64", rounded, c64, c64);
    check_same_bits("around bool", [decimals](auto x, auto) { return xp::around(x > 0, decimals + 1); }, f32, f32);
  }
  CHECK_THROWS_WITH_AS(xp::fuse([](auto x) { return xp::around(x > 0, -1); })(f32),
                       "around: cannot write the result of rounding bool to -1 decimals (float64) into bool (NumPy's "
                       "same_kind casting)",
                       xp::TypeError);
  CHECK_THROWS_WITH_AS(xp::fuse([](auto x) { return xp::sum(x).astype(dtype::int32); })(f32),
                       "xp::fuse: astype after sum: a fused function ends in at most one reduction", xp::ValueError);
}

XP_TEST_ON_DEVICES("fuse: a trailing reduction sums in the unfused order, bit for bit") {
  for (const xp::dtype type : {xp::dtype::float32, xp::dtype::float64}) {
    const auto x = values({300, 257}, type, device), y = values({300, 257}, type, device, 0.5);
    check_same_bits("sum of squares", squared_distance, x, y);
    check_same_bits("sum over axis 1, kept", [](auto a, auto b) { return xp::sum(a * b - 1, 1, true); }, x, y);
    check_same_bits("mean over axis 0", [](auto a, auto b) { return xp::mean(xp::exp(a) + b, 0); }, x, y);
    check_same_bits("max", [](auto a, auto b) { return xp::max(xp::abs(a - b), {0, 1}); }, x, y);
    check_same_bits("argmin", [](auto a, auto b) { return xp::argmin(a * b, -1); }, x, y);
    check_same_bits("var, ddof 1", [](auto a, auto b) { return xp::var(a + b, 0, false, 1); }, x, y);
    check_same_bits("sum of an argument", [](auto a, auto) { return xp::sum(a, 0); }, x, y);
    // Over every axis of more than one block: by blocks on CPUs, combined as the built-in reduction combines.
    check_same_bits("sum, kept dims", [](auto a, auto b) { return xp::sum(a * b - 1, std::nullopt, true); }, x, y);
    check_same_bits("prod", [](auto a, auto b) { return xp::prod(1 + a * b * 1e-4); }, x, y);
    check_same_bits("min", [](auto a, auto b) { return xp::min(xp::exp(a) - b); }, x, y);
    check_same_bits("max of a broadcast", [](auto a, auto b) { return xp::max(a * b); }, x, y(0));
  }
  // Over the last axes, each output's run in one pass on CPUs (runs of 3000 and 70000 elements: blocks and a
  // pairwise tree with leaves of unequal lengths), the same bits as the built-in reduction's.
  const auto rows = values({40, 3000}, xp::dtype::float32, device),
             long_rows = values({3, 70000}, xp::dtype::float64, device);
  const auto cube = values({4, 50, 300}, xp::dtype::float32, device, 0.3);
  check_same_bits("sum over the last axis", [](auto a, auto b) { return xp::sum(a * b + 1, -1); }, rows, rows);
  check_same_bits(
      "sum of long runs", [](auto a, auto b) { return xp::sum(xp::exp(a) - b, 1, true); }, long_rows, long_rows);
  check_same_bits(
      "prod over the last two axes", [](auto a, auto b) { return xp::prod(1 + a * b * 1e-3f, {2, 1}); }, cube, cube);
  check_same_bits("max with NaNs", [](auto a, auto b) { return xp::max(xp::sqrt(a) * b, {-2, -1}, true); }, cube, cube);
  check_same_bits(
      "mean over the last axis", [](auto a, auto b) { return xp::mean((a - b) * (a - b), -1); }, rows,
      values({40, 3000}, xp::dtype::float32, device, 0.7));
  check_same_bits(
      "mean of everything", [](auto a, auto b) { return xp::mean(a * b, std::nullopt, true); }, long_rows, long_rows);
  check_same_bits("min over a middle axis", [](auto a, auto b) { return xp::min(a - b, 1); }, cube, cube);
  check_same_bits(
      "sum over the last axis with a conversion", [](auto a, auto b) { return xp::sum(a * b, 1); }, rows,
      long_rows(0, xp::slice(0, 3000)));
  const auto i = values({100001}, xp::dtype::int64, device), j = values({100001}, xp::dtype::int32, device, 1);
  check_same_bits("int64 sum", [](auto a, auto b) { return xp::sum(a * b + 3); }, i, j);
  const auto f16 = values({4097}, xp::dtype::float16, device);
  check_same_bits("float16 sum", squared_distance, f16, f16);
}

TEST_CASE("fuse: one trace per binding of dtypes and ranks, shared by copies; values are the trace's constants") {
  int traces = 0;
  const auto f = xp::fuse([&traces](auto x) {
    ++traces;
    return x * 2 + 1;
  });
  const auto g = f;
  const auto a = values({5}, xp::dtype::float32, xp::cpu(0));
  CHECK(xp::ndarray<float>(f(a)).to_vector() == xp::ndarray<float>(a * 2 + 1).to_vector());
  f(values({9}, xp::dtype::float32, xp::cpu(0)));  // another shape, the same binding
  g(a);
  CHECK(traces == 1);
  CHECK(f.traced_bindings() == 1);
  f(values({3, 3}, xp::dtype::float32, xp::cpu(0)));  // another rank
  f(values({5}, xp::dtype::int64, xp::cpu(0)));  // another dtype
  CHECK(traces == 3);
  CHECK(g.traced_bindings() == 3);
}

TEST_CASE("fuse: NumPy's type errors at trace time, and the library's for what does not fuse") {
  const auto x = values({4}, xp::dtype::float32, xp::cpu(0)), i = values({4}, xp::dtype::int32, xp::cpu(0));
  CHECK_THROWS_WITH_AS(xp::fuse([](auto a) { return a & 1; })(x),
                       "bitwise_and: not supported for float32 (NumPy's bitwise operations take integers and bool)",
                       xp::TypeError);
  CHECK_THROWS_WITH_AS(xp::fuse([](auto a) { return a + 300; })(x.astype(xp::dtype::int8)),
                       "add: the scalar 300 does not fit in int8", xp::ValueError);
  CHECK_THROWS_WITH_AS(xp::fuse([](auto a) { return xp::sum(a) * 2; })(x),
                       "xp::fuse: multiply after sum: a fused function ends in at most one reduction", xp::ValueError);
  CHECK_THROWS_WITH_AS(xp::fuse([](auto a) { return xp::max(xp::sum(a, 0)); })(x),
                       "xp::fuse: max after sum: a fused function ends in at most one reduction", xp::ValueError);
  CHECK_THROWS_WITH_AS(xp::fuse([](auto a) {
                         (void)xp::sum(a);
                         return a;
                       })(x),
                       "xp::fuse: the function must return the result of its sum", xp::ValueError);
  CHECK_THROWS_WITH_AS(xp::fuse([](auto a, auto b) { return a + b; })(x, values({3}, xp::dtype::float32, xp::cpu(0))),
                       "fused: operands could not be broadcast together with shapes (4,) (3,)", xp::ValueError);
  CHECK_THROWS_AS(xp::fuse([](auto a) { return a; }, "not a name"), xp::ValueError);
  CHECK_THROWS_WITH_AS(xp::fuse([](auto a, auto b) { return xp::gcd(a, b); })(i, x),
                       "gcd: not supported for float32 (NumPy's gcd takes integers alone)", xp::TypeError);
}

TEST_CASE("fuse: while autograd records, a function of arrays that need gradients runs unfused and is recorded") {
  const auto f = xp::fuse([](auto x, auto y) { return xp::sum(xp::exp(x) * y); });
  xp::ndarray<double> x = xp::linspace<double>(-1, 1, 6), y = xp::linspace<double>(2, 3, 6);
  x.attach_grad();
  {
    xp::autograd::record recording;
    f(x, y).backward();
  }
  CHECK(x.grad().to_vector() == xp::ndarray<double>(xp::exp(x) * y).to_vector());
  CHECK(f.traced_bindings() == 0);
  CHECK(xp::ndarray<double>(f(x, y)).item<double>() == xp::sum(xp::exp(x) * y).item<double>());
}

TEST_CASE("fuse: the printed kernel, compiled by the host compiler, computes what the fused run computes") {
  const auto printed_run = [](const auto& function, const xp::ndarray<>& a, const xp::ndarray<>& b) {
    return xp_test::printed_fusion(function, a, b, "printed")(a, b);
  };
  const auto f32 = values({300}, xp::dtype::float32, xp::cpu(0)), i32 = values({300}, xp::dtype::int32, xp::cpu(0));
  const auto exact = [](auto x, auto i) {
    return xp::where(x > 1, x * 3 - i, xp::floor_divide(i, 3) + 0.25f) / (xp::abs(x) + 1) + (i % 5 == 0);
  };
  CHECK(bytes_of(printed_run(exact, f32, i32)) == bytes_of(xp::fuse(exact)(f32, i32)));
  const auto halves = [](auto h, auto b) { return xp::square(h) * 0.1f - b + xp::frexp(h).second; };
  const auto h16 = f32.astype(xp::dtype::float16), b16 = f32.astype(xp::dtype::bfloat16);
  CHECK(bytes_of(printed_run(halves, h16, b16)) == bytes_of(xp::fuse(halves)(h16, b16)));
  const auto casts = [](auto x, auto i) { return (x * 7).astype(xp::dtype::int16) * i + xp::around(x, 1); };
  CHECK(bytes_of(printed_run(casts, f32, i32)) == bytes_of(xp::fuse(casts)(f32, i32)));
  const auto complex = [](auto c, auto x) { return xp::conj(c) * x - std::complex<double>(0.5, -2); };
  const auto c64 = f32.astype(xp::dtype::complex64);
  CHECK(bytes_of(printed_run(complex, c64, f32)) == bytes_of(xp::fuse(complex)(c64, f32)));
  // The transcendental functions of the built-in CPU loops may be vector math (up to 4 ulp apart).
  const auto f64 = f32.astype(xp::dtype::float64);
  const std::vector<double> printed = xp::ndarray<double>(printed_run(exp_chain, f64, f64)).to_vector();
  const std::vector<double> fused = xp::ndarray<double>(xp::fuse(exp_chain)(f64, f64)).to_vector();
  for (std::size_t k = 0; k < fused.size(); ++k) CHECK(std::abs(printed[k] - fused[k]) <= 1e-14 * std::abs(fused[k]));
}

TEST_CASE("fuse: the printed kernel, golden") {
  using xp::detail::FusionGraph;
  const auto graph = std::make_shared<FusionGraph>();
  const xp::TracedValue z(graph, graph->add_parameter(xp::dtype::float16), xp::dtype::float16, 1);
  const xp::TracedValue y(graph, graph->add_parameter(xp::dtype::int32), xp::dtype::int32, 2);
  graph->set_output((xp::exp(z + 2) * y < 1.5).node());
  const xp::detail::FusedSource source = xp::detail::fused_elementwise_source(*graph);
  CHECK(source.in_params == "float16 in0, int32 in1");
  CHECK(source.out_params == "bool out0");
  CHECK(source.operation ==
        "const xp::float16 t2 = xp_fused_keep(static_cast<xp::float16>(xp::add(in0, "
        "xp::float16(xp_fused_float(0x40000000u)))));\n"
        "const xp::float16 t3 = xp_fused_keep(static_cast<xp::float16>(xp::exp(t2)));\n"
        "const xp::float16 t4 = xp_fused_keep(static_cast<xp::float16>(xp::multiply(t3, "
        "xp::kernels::cast<xp::float16>(in1))));\n"
        "const bool t5 = xp_fused_keep(static_cast<bool>(xp::less(t4, xp::float16(xp_fused_float(0x3fc00000u)))));\n"
        "out0 = t5;");
  const auto cast = std::make_shared<FusionGraph>();
  const xp::TracedValue x(cast, cast->add_parameter(xp::dtype::float64), xp::dtype::float64, 1);
  cast->set_output(x.astype(xp::dtype::int8).node());
  CHECK(xp::detail::fused_elementwise_source(*cast).operation ==
        "const signed char t1 = xp::kernels::cast<signed char>(in0);\nout0 = t1;");
}
