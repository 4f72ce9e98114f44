// complex64 and complex128 arrays on every device: dtypes and promotion, conversions, printing as
// NumPy prints them, arithmetic and functions against std::complex on the host (and NumPy's answers
// where NumPy computes differently: integer powers, ordering, NaN), reductions, products, DLPack and
// the errors NumPy raises. Expected strings and values were printed by .venv's NumPy 2.
#include <doctest/doctest.h>

#include <complex>
#include <cstdint>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "device_cases.hpp"
#include "xp/dlpack.hpp"
#include "xp/serialization.hpp"

namespace {

using c64 = std::complex<float>;
using c128 = std::complex<double>;

std::string printed(const xp::ndarray<>& a) {
  std::ostringstream text;
  text << a;
  const std::string all = text.str();
  return all.substr(0, all.find("\n<ndarray"));
}

template <class C>
void check_near(const std::vector<C>& actual, const std::vector<C>& expected, double tolerance) {
  REQUIRE(actual.size() == expected.size());
  for (std::size_t i = 0; i < actual.size(); ++i) {
    CAPTURE(i);
    CHECK(std::abs(actual[i].real() - expected[i].real()) <= tolerance * (1 + std::abs(expected[i].real())));
    CHECK(std::abs(actual[i].imag() - expected[i].imag()) <= tolerance * (1 + std::abs(expected[i].imag())));
  }
}

}  // namespace

TEST_CASE("complex dtypes: names, sizes, promotion as NumPy's (with the library's integer rule)") {
  using xp::dtype;
  CHECK(xp::dtype_name(dtype::complex64) == "complex64");
  CHECK(xp::dtype_name(dtype::complex128) == "complex128");
  CHECK(xp::itemsize(dtype::complex64) == 8);
  CHECK(xp::itemsize(dtype::complex128) == 16);
  CHECK(xp::dtype_of<c64> == dtype::complex64);
  CHECK(xp::is_complex(dtype::complex128));
  CHECK_FALSE(xp::is_floating(dtype::complex64));  // np.issubdtype(np.complex64, np.floating) is False
  CHECK(xp::promote_types(dtype::complex64, dtype::float64) == dtype::complex128);
  CHECK(xp::promote_types(dtype::float32, dtype::complex64) == dtype::complex64);
  CHECK(xp::promote_types(dtype::complex64, dtype::complex128) == dtype::complex128);
  CHECK(xp::promote_types(dtype::float16, dtype::complex64) == dtype::complex64);
  CHECK(xp::promote_types(dtype::int32, dtype::complex64) == dtype::complex64);  // as int32 + float32
  CHECK(xp::promote_types(dtype::bool_, dtype::complex128) == dtype::complex128);
  // A complex scalar makes a real array complex, keeping a float array's precision (NumPy 2's weak scalars).
  CHECK(xp::promote_with_scalar(dtype::float32, xp::ScalarKind::complex128) == dtype::complex64);
  CHECK(xp::promote_with_scalar(dtype::float64, xp::ScalarKind::complex64) == dtype::complex128);
  CHECK(xp::promote_with_scalar(dtype::int16, xp::ScalarKind::complex128) == dtype::complex128);
  CHECK(xp::promote_with_scalar(dtype::complex64, xp::ScalarKind::float64) == dtype::complex64);
  static_assert(std::is_same_v<xp::promote_t<c64, double>, c128>);
}

XP_TEST_ON_DEVICES("complex: creation, conversions both ways, scalars") {
  const auto a = xp::array<c64>({c64(1, 2), c64(0, -1), c64(-3.5f, 0.25f)}, device);
  CHECK(a.dtype() == xp::dtype::complex64);
  CHECK(a.nbytes() == 24);
  CHECK(a.to_vector() == std::vector<c64>{{1, 2}, {0, -1}, {-3.5f, 0.25f}});
  // To real types: the real part (NumPy warns ComplexWarning); to bool: either part non-zero.
  CHECK(a.astype<double>().to_vector() == std::vector<double>{1, 0, -3.5});
  CHECK(a.astype<std::int32_t>().to_vector() == std::vector<std::int32_t>{1, 0, -3});
  CHECK(xp::array<c64>({c64(0, 0), c64(0, 1), c64(1, 0)}, device).astype<bool>().to_vector() ==
        std::vector<bool>{false, true, true});
  CHECK(a.astype<c128>().to_vector() == std::vector<c128>{{1, 2}, {0, -1}, {-3.5, 0.25}});
  CHECK(xp::array<float>({1.5f, -2}, device).astype<c64>().to_vector() == std::vector<c64>{{1.5f, 0}, {-2, 0}});
  CHECK(xp::array<xp::float16>({xp::float16(0.5f)}, device).astype<c128>().to_vector() == std::vector<c128>{{0.5, 0}});
  CHECK(xp::zeros<c128>({2}, device).to_vector() == std::vector<c128>(2));
  CHECK(xp::ones<c64>({2}, device).to_vector() == std::vector<c64>(2, c64(1)));
  CHECK(xp::arange<c64>(0.0, 1.5, 0.5, device).to_vector() == std::vector<c64>{{0, 0}, {0.5f, 0}, {1, 0}});
  // A complex scalar with a real array: complex64 from float32, as NumPy 2.
  const auto scaled = xp::array<float>({1, 2}, device) * c128(0, 1);
  static_assert(std::is_same_v<decltype(scaled), const xp::ndarray<c64>>);
  CHECK(scaled.to_vector() == std::vector<c64>{{0, 1}, {0, 2}});
  CHECK((a + 1.0).to_vector() == std::vector<c64>{{2, 2}, {1, -1}, {-2.5f, 0.25f}});
  CHECK(xp::array<c128>({c128(1, -2)}, device).item() == c128(1, -2));
}

XP_TEST_ON_DEVICES("complex: printed as NumPy prints them") {
  CHECK(printed(xp::array<c64>({c64(1, 2), c64(0, -1)}, device)) == "[1.+2.j 0.-1.j]");
  CHECK(printed(xp::array<c128>({c128(1.5, 2), c128(3, -0.25)}, device)) == "[1.5+2.j   3. -0.25j]");
  CHECK(printed(xp::array<c128>({c128(1e-5, 1), c128(2, 3)}, device)) == "[1.e-05+1.j 2.e+00+3.j]");
  const double nan = std::numeric_limits<double>::quiet_NaN(), inf = std::numeric_limits<double>::infinity();
  CHECK(printed(xp::array<c128>({c128(nan, 1), c128(1, inf), c128(2, -inf)}, device)) ==
        "[nan +1.j  1.+infj  2.-infj]");
  CHECK(printed(xp::array<c128>({c128(1, 1), c128(2, 0), c128(0, 3), c128(-4.5, 0)}, device).reshape({2, 2})) ==
        "[[ 1. +1.j  2. +0.j]\n [ 0. +3.j -4.5+0.j]]");
  CHECK(printed(xp::full<c128>({}, c128(1, 2), device)) == "(1+2j)");
  CHECK(printed(xp::full<c128>({}, c128(0, 2), device)) == "2j");
  CHECK(printed(xp::full<c64>({}, c64(1.5f, -0.25f), device)) == "(1.5-0.25j)");
  CHECK(printed(xp::full<c128>({}, c128(0.0, -0.0), device)) == "-0j");
  CHECK(printed(xp::full<c128>({}, c128(-0.0, 1), device)) == "(-0+1j)");
}

XP_TEST_ON_DEVICES("complex: arithmetic and functions as std::complex, powers and ordering as NumPy") {
  const std::vector<c128> xs{{1, 2}, {-0.5, 0.25}, {3, -4}, {0, 1}};
  const std::vector<c128> ys{{2, -1}, {0.75, 0.5}, {-1, -1}, {2, 0}};
  const auto x = xp::array<c128>(xs, device), y = xp::array<c128>(ys, device);
  std::vector<c128> sum, difference, product, quotient;
  for (std::size_t i = 0; i < xs.size(); ++i) {
    sum.push_back(xs[i] + ys[i]);
    difference.push_back(xs[i] - ys[i]);
    product.push_back(xs[i] * ys[i]);
    quotient.push_back(xs[i] / ys[i]);
  }
  CHECK((x + y).to_vector() == sum);
  CHECK((x - y).to_vector() == difference);
  check_near((x * y).to_vector(), product, 1e-15);
  check_near((x / y).to_vector(), quotient, 1e-15);
  struct Function {
    const char* name;
    xp::ndarray<c128> (*ours)(const xp::ndarray<c128>&);
    c128 (*reference)(const c128&);
  };
  const Function functions[] = {
      {"exp", [](const xp::ndarray<c128>& a) { return xp::exp(a); }, [](const c128& v) { return std::exp(v); }},
      {"log", [](const xp::ndarray<c128>& a) { return xp::log(a); }, [](const c128& v) { return std::log(v); }},
      {"sqrt", [](const xp::ndarray<c128>& a) { return xp::sqrt(a); }, [](const c128& v) { return std::sqrt(v); }},
      {"sin", [](const xp::ndarray<c128>& a) { return xp::sin(a); }, [](const c128& v) { return std::sin(v); }},
      {"cos", [](const xp::ndarray<c128>& a) { return xp::cos(a); }, [](const c128& v) { return std::cos(v); }},
      {"tan", [](const xp::ndarray<c128>& a) { return xp::tan(a); }, [](const c128& v) { return std::tan(v); }},
      {"tanh", [](const xp::ndarray<c128>& a) { return xp::tanh(a); }, [](const c128& v) { return std::tanh(v); }}};
  for (const Function& function : functions) {  // a struct, not a structured binding: doctest's CAPTURE is a lambda
    CAPTURE(function.name);
    std::vector<c128> expected;
    for (const c128& v : xs) expected.push_back(function.reference(v));
    check_near(function.ours(x).to_vector(), expected, 1e-14);
  }
  // abs is real (hypot); conj, real, imag, angle.
  const auto magnitude = xp::abs(xp::array<c64>({c64(3, -4), c64(0, -2)}, device));
  static_assert(std::is_same_v<decltype(magnitude), const xp::ndarray<float>>);
  CHECK(magnitude.to_vector() == std::vector<float>{5, 2});
  CHECK(xp::conj(x).to_vector() == std::vector<c128>{{1, -2}, {-0.5, -0.25}, {3, 4}, {0, -1}});
  CHECK(xp::real(x).to_vector() == std::vector<double>{1, -0.5, 3, 0});
  CHECK(xp::imag(x).to_vector() == std::vector<double>{2, 0.25, -4, 1});
  CHECK(xp::imag(xp::array<float>({1, 2}, device)).to_vector() == std::vector<float>{0, 0});
  CHECK(xp::angle(xp::array<double>({-1.0, 1.0}, device)).to_vector() == std::vector<double>{std::atan2(0.0, -1.0), 0});
  CHECK(xp::angle(x).to_vector()[2] == std::atan2(-4.0, 3.0));
  // Integer powers by squaring, exactly: NumPy's (1+1j)**2 is 2j, its (1+1j)**-2 is -0.5j.
  const auto base = xp::array<c128>({c128(1, 1)}, device);
  CHECK(xp::power(base, 2.0).to_vector() == std::vector<c128>{{0, 2}});
  CHECK(xp::power(base, -2.0).to_vector() == std::vector<c128>{{0, -0.5}});
  // 0^b: 1 for b = 0, 0 for b of positive real part (any imaginary part), as NumPy.
  CHECK(xp::power(xp::array<c128>({c128(0, 0), c128(0, 0), c128(0, 0)}, device),
                  xp::array<c128>({c128(0, 0), c128(2, 0), c128(1, 1)}, device))
            .to_vector() == std::vector<c128>{{1, 0}, {0, 0}, {0, 0}});
  // Ordering: lexicographic, a NaN part makes a comparison false (NumPy's np.less, np.maximum).
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const auto p = xp::array<c128>({c128(1, 2), c128(1, 2), c128(1, nan)}, device);
  const auto q = xp::array<c128>({c128(1, 3), c128(0, 5), c128(2, 0)}, device);
  CHECK((p < q).to_vector() == std::vector<bool>{true, false, false});
  CHECK((p >= q).to_vector() == std::vector<bool>{false, true, false});
  CHECK((p == p).to_vector() == std::vector<bool>{true, true, false});
  const auto m = xp::maximum(xp::array<c128>({c128(1, 2), c128(nan, 0), c128(1, 1)}, device),
                             xp::array<c128>({c128(1, 3), c128(5, 0), c128(0, nan)}, device))
                     .to_vector();
  CHECK(m[0] == c128(1, 3));
  CHECK(std::isnan(m[1].real()));
  CHECK(std::isnan(m[2].imag()));
  CHECK(xp::logical_not(xp::array<c64>({c64(0, 0), c64(0, 1)}, device)).to_vector() == std::vector<bool>{true, false});
  CHECK(xp::where(xp::array<bool>({true, false, false, true}, device), x, y).to_vector() ==
        std::vector<c128>{xs[0], ys[1], ys[2], xs[3]});
}

// Each part within `ulps` of its own magnitude of the long double result (glibc's csqrtl, clogl, ctanl, ctanhl).
template <class C>
void check_parts_near(const std::vector<C>& actual, const std::vector<std::complex<long double>>& expected,
                      double ulps) {
  using R = typename C::value_type;
  REQUIRE(actual.size() == expected.size());
  for (std::size_t i = 0; i < actual.size(); ++i) {
    CAPTURE(i);
    CAPTURE(actual[i]);
    const auto tolerance = [&](long double part) {
      return static_cast<long double>(ulps) * std::numeric_limits<R>::epsilon() * std::fabs(part);
    };
    CHECK(std::fabs(actual[i].real() - expected[i].real()) <= tolerance(expected[i].real()));
    CHECK(std::fabs(actual[i].imag() - expected[i].imag()) <= tolerance(expected[i].imag()));
  }
}

// Where the textbook formulas cancel (libcu++'s on GPUs do): the root of a negative real number, log
// near |z| = 1, tan and tanh near their poles, and the ends of the range.
template <class C>
void check_accurate_functions(xp::Device device) {
  using R = typename C::value_type;
  using L = std::complex<long double>;
  const R huge = std::numeric_limits<R>::max() / 2, tiny = std::numeric_limits<R>::denorm_min() * 8;
  const std::vector<C> roots{{-4, 0}, {-4, R(-0.0)}, {-1, R(1e-6)}, {huge, huge}, {tiny, tiny}, {-huge, R(1)}};
  const std::vector<C> logs{{R(1) + R(1e-6), R(1e-3)}, {R(0.6), R(0.8)}, {R(-1e-4), R(-1)}, {huge, huge}, {tiny, 0}};
  const std::vector<C> tans{{R(1.5707963267948966), 0}, {R(-1.57), R(1e-5)}, {R(2.5), R(-3)}, {R(0.3), R(30)}};
  const auto reference = [](const std::vector<C>& zs, L (*f)(const L&)) {
    std::vector<L> out;
    for (const C& z : zs) out.push_back(f(L(z.real(), z.imag())));
    return out;
  };
  const auto on = [&](const std::vector<C>& zs) { return xp::array<C>(zs, device); };
  CHECK(xp::sqrt(on(roots)).to_vector()[0] == C(0, 2));  // not polar(2, pi/2): 1.2e-16 + 2j
  CHECK(xp::sqrt(on(roots)).to_vector()[1] == C(0, -2));
  check_parts_near(xp::sqrt(on(roots)).to_vector(), reference(roots, [](const L& z) { return std::sqrt(z); }), 2);
  check_parts_near(xp::log(on(logs)).to_vector(), reference(logs, [](const L& z) { return std::log(z); }), 4);
  check_parts_near(xp::tan(on(tans)).to_vector(), reference(tans, [](const L& z) { return std::tan(z); }), 8);
  std::vector<C> swapped;  // tanh(i z) = i tan z: the same points, turned
  for (const C& z : tans) swapped.push_back(C(-z.imag(), z.real()));
  check_parts_near(xp::tanh(on(swapped)).to_vector(), reference(swapped, [](const L& z) { return std::tanh(z); }), 8);
}

XP_TEST_ON_DEVICES("complex: sqrt, log, tan and tanh to a few ulps where textbook formulas cancel") {
  SUBCASE("complex64") { check_accurate_functions<c64>(device); }
  SUBCASE("complex128") { check_accurate_functions<c128>(device); }
}

XP_TEST_ON_DEVICES("complex: float16 overflow is inf and complex remainder a TypeError, as NumPy") {
  CHECK(std::isinf(static_cast<float>((xp::full<xp::float16>({1}, xp::float16(60000.0f), device) * 2.0).item())));
  const auto z = xp::array<c64>({c64(1, 1)}, device);
  CHECK_THROWS_WITH_AS(xp::mod(z, z), "mod: not supported for complex input (complex64), as NumPy's remainder",
                       xp::TypeError);
}

XP_TEST_ON_DEVICES("complex: reductions as NumPy (var, std, norm real; max lexicographic)") {
  const auto a = xp::array<c64>({c64(1, 1), c64(2, -1), c64(-3, 0.5f)}, device);
  CHECK(xp::sum(a).item() == c64(0, 0.5f));
  CHECK(xp::prod(a).item() == c64(-9.5f, -1.5f));
  CHECK(std::abs(xp::mean(a).item() - c64(0, 0.5f / 3)) < 1e-7f);
  const auto variance = xp::var(a);
  static_assert(std::is_same_v<decltype(variance), const xp::ndarray<float>>);
  CHECK(variance.item() == doctest::Approx(5.388889).epsilon(1e-6));
  CHECK(xp::max(a).item() == c64(2, -1));
  CHECK(xp::min(a).item() == c64(-3, 0.5f));
  CHECK(xp::argmin(a).item() == 2);
  CHECK(xp::argmax(a).item() == 1);
  const auto b = xp::array<c128>({c128(3, 4), c128(0, 0), c128(1, 0), c128(0, 2)}, device).reshape({2, 2});
  CHECK(xp::sum(b, 0).to_vector() == std::vector<c128>{{4, 4}, {0, 2}});
  CHECK(xp::norm(b).item() == doctest::Approx(std::sqrt(30.0)));
}

XP_TEST_ON_DEVICES("complex: matmul and dot through cgemm and zgemm, against a direct sum") {
  const std::int64_t m = 37, k = 70, n = 29;  // large enough for the BLAS path, odd to catch layout slips
  std::vector<c128> av, bv;
  for (std::int64_t i = 0; i < m * k; ++i) av.emplace_back(0.01 * (i % 17) - 0.05, 0.02 * (i % 5));
  for (std::int64_t i = 0; i < k * n; ++i) bv.emplace_back(0.03 * (i % 7), -0.01 * (i % 11) + 0.02);
  std::vector<c128> expected(static_cast<std::size_t>(m * n));
  for (std::int64_t i = 0; i < m; ++i)
    for (std::int64_t j = 0; j < n; ++j)
      for (std::int64_t p = 0; p < k; ++p) expected[i * n + j] += av[i * k + p] * bv[p * n + j];
  const auto a = xp::array<c128>(av, device).reshape({m, k}), b = xp::array<c128>(bv, device).reshape({k, n});
  check_near(xp::matmul(a, b).to_vector(), expected, 1e-13);
  std::vector<c64> expected64;
  for (const c128& v : expected) expected64.emplace_back(v);
  check_near(xp::matmul(a.astype<c64>(), b.astype<c64>()).to_vector(), expected64, 1e-5);
  // Transposed operands and a 2x2 by hand: [[1+i, 2], [0, -i]] . [[1, i], [1-i, 3]].
  const auto c = xp::array<c64>({c64(1, 1), c64(2, 0), c64(0, 0), c64(0, -1)}, device).reshape({2, 2});
  const auto d = xp::array<c64>({c64(1, 0), c64(0, 1), c64(1, -1), c64(3, 0)}, device).reshape({2, 2});
  CHECK(xp::matmul(c, d).to_vector() == std::vector<c64>{{3, -1}, {5, 1}, {-1, -1}, {0, -3}});
  CHECK(xp::matmul(c.transpose(), d).to_vector() == std::vector<c64>{{1, 1}, {-1, 1}, {1, -1}, {0, -1}});
}

XP_TEST_ON_DEVICES("complex: DLPack both ways; MXNet's parameter files refuse them") {
  const auto a = xp::array<c128>({c128(1, 2), c128(3, -4)}, device);
  DLManagedTensorVersioned* managed = xp::to_dlpack(a);
  CHECK(managed->dl_tensor.dtype.code == kDLComplex);
  CHECK(managed->dl_tensor.dtype.bits == 128);
  const xp::ndarray<> back = xp::from_dlpack(managed);
  CHECK(back.dtype() == xp::dtype::complex128);
  CHECK(back.as<c128>().to_vector() == a.to_vector());
  CHECK_THROWS_AS(xp::save("/nonexistent-dir/never-written.params", {{"z", xp::ndarray<>(a)}}), xp::TypeError);
}

XP_TEST_ON_DEVICES("complex: gradients of real losses as PyTorch's (dL/dx + i dL/dy)") {
  const std::vector<c128> values{{1, 2}, {-0.5, 0.25}, {3, -4}};
  auto z = xp::array<c128>(values, device);
  const auto gradient_of = [&](auto loss) {
    z.attach_grad();
    {
      xp::autograd::record recording;
      auto l = loss(z);
      l.backward();
    }
    return z.grad().to_vector();
  };
  std::vector<c128> twice, conj_exp, turned, i_times;
  for (const c128& v : values) {
    twice.push_back(2.0 * v);
    conj_exp.push_back(std::conj(std::exp(v)));
    turned.push_back(c128(0, 1) * v / std::norm(v));
    i_times.push_back(c128(0, 1));
  }
  check_near(gradient_of([](const auto& x) { return xp::sum(xp::abs(x) * xp::abs(x)); }), twice, 1e-14);
  check_near(gradient_of([](const auto& x) { return xp::sum(xp::real(xp::exp(x))); }), conj_exp, 1e-14);
  check_near(gradient_of([](const auto& x) { return xp::sum(xp::angle(x)); }), turned, 1e-14);
  check_near(gradient_of([](const auto& x) { return xp::sum(xp::imag(x)); }), i_times, 0);
  // |z|^2 as z * conj(z): through multiply's conjugated formula and conj's.
  check_near(gradient_of([](const auto& x) { return xp::sum(xp::real(x * xp::conj(x))); }), twice, 1e-14);
  // matmul: the gradient of sum(real(A . B)) in A is conj(B)'s row sums, for each row of A.
  const auto b = xp::array<c128>({c128(1, 1), c128(0, 2), c128(-1, 0), c128(2, -3), c128(0.5, 0), c128(1, 1)}, device)
                     .reshape({3, 2});
  auto a = xp::array<c128>({c128(1, 0), c128(0, 1), c128(2, 2)}, device).reshape({1, 3});
  a.attach_grad();
  {
    xp::autograd::record recording;
    auto l = xp::sum(xp::real(xp::matmul(a, b)));
    l.backward();
  }
  CHECK(a.grad().to_vector() == std::vector<c128>{{1, -3}, {1, 3}, {1.5, -1}});
}
