// The README's "Types and numerics where the contract is silent", one test per sentence, in the
// README's order: the section is a contract, and a sentence without a test here is a bug.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>
#include <vector>

#include "device_cases.hpp"
#include "element_types.hpp"
#include "omp_threads.hpp"

namespace {

using xp::dtype;

const double qnan = std::numeric_limits<double>::quiet_NaN();
const double inf = std::numeric_limits<double>::infinity();

// The bits of a float32 vector, so that "the same result" means the same bits.
std::vector<std::uint32_t> bits_of(const std::vector<float>& values) {
  std::vector<std::uint32_t> bits(values.size());
  std::memcpy(bits.data(), values.data(), values.size() * sizeof(float));
  return bits;
}

}  // namespace

// ---- Promotion ----

XP_TEST_ON_DEVICES("promotion: equal types stay; bool gives way to anything") {
  for_each_element_type([&]<class T>() {
    CAPTURE(xp::dtype_of<T>);
    const auto a = xp::ones<T>({2}, device);
    CHECK((a * a).dtype() == xp::dtype_of<T>);
    CHECK((xp::ones<bool>({2}, device) * a).dtype() == xp::dtype_of<T>);
    CHECK(xp::maximum(a, xp::ones<bool>({2}, device)).dtype() == xp::dtype_of<T>);
  });
}

XP_TEST_ON_DEVICES("promotion: a float with an integer gives that float (int32 + float32 is float32)") {
  const auto i = xp::array<int>({1, 2}, device);
  const auto f = xp::array<float>({0.5f, 1.5f}, device);
  static_assert(std::is_same_v<decltype(i + f), xp::ndarray<float>>);
  CHECK((i + f).to_vector() == std::vector<float>{1.5f, 3.5f});
  CHECK((xp::array<std::int64_t>({1}, device) + f).dtype() == dtype::float32);
  CHECK((xp::array<std::uint64_t>({1}, device) * xp::array<double>({2}, device)).dtype() == dtype::float64);
}

XP_TEST_ON_DEVICES("promotion: two floats give the wider") {
  const auto sum = xp::array<float>({0.1f}, device) + xp::array<double>({0.2}, device);
  CHECK(sum.dtype() == dtype::float64);
  CHECK(sum.item() == static_cast<double>(0.1f) + 0.2);
}

XP_TEST_ON_DEVICES("promotion: two integers of one signedness give the wider") {
  CHECK((xp::array<std::int8_t>({100}, device) + xp::array<std::int32_t>({100}, device)).item() == 200);
  CHECK((xp::array<std::uint16_t>({60000}, device) + xp::array<std::uint8_t>({200}, device)).item() == 60200);
  static_assert(xp::promote_types(dtype::int16, dtype::int64) == dtype::int64);
  static_assert(xp::promote_types(dtype::uint32, dtype::uint8) == dtype::uint32);
}

XP_TEST_ON_DEVICES(
    "promotion: signed with unsigned gives the smallest signed type holding both, uint64 with signed float64") {
  static_assert(xp::promote_types(dtype::int8, dtype::uint8) == dtype::int16);
  static_assert(xp::promote_types(dtype::uint32, dtype::int32) == dtype::int64);
  static_assert(xp::promote_types(dtype::uint16, dtype::int8) == dtype::int32);
  static_assert(xp::promote_types(dtype::uint8, dtype::int16) == dtype::int16);
  static_assert(xp::promote_types(dtype::uint64, dtype::int8) == dtype::float64);
  const auto mixed = xp::array<std::int8_t>({-1}, device) + xp::array<std::uint8_t>({200}, device);
  CHECK(mixed.dtype() == dtype::int16);
  CHECK(mixed.item() == 199);
  const auto wide = xp::array<std::uint64_t>({std::uint64_t(1) << 63}, device) + xp::array<std::int64_t>({-1}, device);
  CHECK(wide.dtype() == dtype::float64);
  CHECK(wide.item() == std::ldexp(1.0, 63) - 1);  // rounded in float64, as NumPy
}

XP_TEST_ON_DEVICES(
    "promotion: scalars are weak; integer and bool arrays take a floating scalar's type; bool with an integer scalar "
    "is int64") {
  const auto i = xp::array<int>({1, 2}, device);
  CHECK((i + 2).dtype() == dtype::int32);
  CHECK((xp::array<std::uint8_t>({250}, device) + 10).item() == 4);  // stays uint8, so it wraps
  CHECK((xp::array<float>({1}, device) + 2.5).dtype() == dtype::float32);
  CHECK((i * 2.5f).dtype() == dtype::float32);
  CHECK((2.5 * i).to_vector() == std::vector<double>{2.5, 5});
  CHECK((xp::array<bool>({true}, device) * 2.5f).dtype() == dtype::float32);
  CHECK((xp::array<bool>({true}, device) + 1).dtype() == dtype::int64);
  CHECK((xp::array<bool>({true}, device) + 1).item() == 2);
  CHECK((i + true).dtype() == dtype::int32);
  static_assert(std::is_same_v<xp::promote_scalar_t<std::int32_t, double>, double>);
  static_assert(std::is_same_v<xp::promote_scalar_t<float, double>, float>);
}

XP_TEST_ON_DEVICES("promotion: an integer scalar that does not fit the array's integer type is a ValueError") {
  CHECK_THROWS_WITH_AS(xp::array<std::uint8_t>({1}, device) + 300, "add: the scalar 300 does not fit in uint8",
                       xp::ValueError);
  CHECK_THROWS_AS(xp::array<std::uint8_t>({1}, device) + -1, xp::ValueError);
  CHECK_THROWS_AS(xp::array<std::int16_t>({1}, device) * 40000, xp::ValueError);
  CHECK((xp::array<std::int16_t>({1}, device) * 32767).item() == 32767);
}

// ---- Float-only functions ----

XP_TEST_ON_DEVICES("float16 and bfloat16: promotion as floats, conversions once, float32 compute rounded once") {
  const auto h = xp::array<float>({1.0f, 2.0f}, device).astype<xp::float16>();
  const auto b = xp::array<float>({1.0f, 2.0f}, device).astype<xp::bfloat16>();
  CHECK((h + b).dtype() == dtype::float32);
  CHECK((h + xp::array<std::int16_t>({1, 2}, device)).dtype() == dtype::float16);
  CHECK((b + xp::array<double>({1, 2}, device)).dtype() == dtype::float64);
  // 1 + 2^-11 + 2^-40 is just above a float16 tie: rounded once it is 1 + 2^-10, through float 1.
  const double above_tie = 1.0 + std::ldexp(1.0, -11) + std::ldexp(1.0, -40);
  CHECK(xp::array<double>({above_tie}, device).astype<xp::float16>().to_vector()[0].bits == 0x3c01);
  CHECK(std::isinf(static_cast<float>(xp::full<float>({1}, 1e5f, device).astype<xp::float16>().item())));
  // 0.1 + 0.2 in float32, rounded once: not float16(0.1) + float16(0.2) accumulated in float16 twice.
  const auto tenth = xp::full<float>({1}, 0.1f, device).astype<xp::float16>();
  const auto fifth = xp::full<float>({1}, 0.2f, device).astype<xp::float16>();
  CHECK((tenth + fifth).item().bits ==
        xp::float16(static_cast<float>(tenth.item()) + static_cast<float>(fifth.item())).bits);
  CHECK(static_cast<float>(xp::sum(xp::ones<xp::float16>({3000}, device)).item()) == 3000.0f);
  const auto product = xp::matmul(xp::ones<xp::float16>({1, 4096}, device), xp::ones<xp::float16>({4096, 1}, device));
  CHECK(static_cast<float>(product.item()) == 4096.0f);
}

XP_TEST_ON_DEVICES("float-only functions compute inputs of at most 16 bits in float32, wider ones in float64") {
  const auto expect = [&]<class T>(dtype computed) {
    CAPTURE(xp::dtype_of<T>);
    const auto x = xp::ones<T>({1}, device);
    CHECK((x / x).dtype() == computed);
    CHECK(xp::divide(x, x).dtype() == computed);
    CHECK(xp::exp(x).dtype() == computed);
    CHECK(xp::log(x).dtype() == computed);
    CHECK(xp::log1p(x).dtype() == computed);
    CHECK(xp::expm1(x).dtype() == computed);
    CHECK(xp::sqrt(x).dtype() == computed);
    CHECK(xp::sin(x).dtype() == computed);
    CHECK(xp::cos(x).dtype() == computed);
    CHECK(xp::tan(x).dtype() == computed);
    CHECK(xp::tanh(x).dtype() == computed);
    CHECK(xp::sigmoid(x).dtype() == computed);
  };
  expect.template operator()<bool>(dtype::float32);
  expect.template operator()<std::int8_t>(dtype::float32);
  expect.template operator()<std::uint8_t>(dtype::float32);
  expect.template operator()<std::int16_t>(dtype::float32);
  expect.template operator()<std::uint16_t>(dtype::float32);
  expect.template operator()<std::int32_t>(dtype::float64);
  expect.template operator()<std::uint32_t>(dtype::float64);
  expect.template operator()<std::int64_t>(dtype::float64);
  expect.template operator()<std::uint64_t>(dtype::float64);
  expect.template operator()<float>(dtype::float32);
  expect.template operator()<double>(dtype::float64);
  CHECK(xp::sqrt(xp::array<int>({4, 9}, device)).to_vector() == std::vector<double>{2, 3});
}

XP_TEST_ON_DEVICES(
    "mean, var, std, norm of integers are float64; sum and prod of bool and signed integers int64, of unsigned "
    "uint64") {
  const auto small = xp::array<std::int8_t>({100, 100, 101}, device);
  CHECK(xp::mean(small).dtype() == dtype::float64);
  CHECK(xp::mean(small).item() == 301.0 / 3);
  CHECK(xp::var(small).dtype() == dtype::float64);
  CHECK(xp::std(small).dtype() == dtype::float64);
  CHECK(xp::norm(xp::array<std::uint16_t>({3, 4}, device)).item() == 5.0);
  CHECK(xp::sum(small).dtype() == dtype::int64);
  CHECK(xp::sum(small).item() == 301);  // no int8 wrap
  CHECK(xp::prod(small).item() == 1010000);
  CHECK(xp::sum(xp::array<bool>({true, true, false}, device)).item() == 2);
  CHECK(xp::sum(xp::array<bool>({true}, device)).dtype() == dtype::int64);
  CHECK(xp::sum(xp::array<std::uint8_t>({200, 100}, device)).dtype() == dtype::uint64);
  CHECK(xp::prod(xp::array<std::uint32_t>({65536, 65536}, device)).item() == std::uint64_t(1) << 32);
  CHECK(xp::mean(xp::array<float>({1, 2}, device)).dtype() == dtype::float32);  // floats keep theirs
}

// ---- Integers ----

XP_TEST_ON_DEVICES("integers wrap around on overflow") {
  CHECK((xp::array<std::int8_t>({127}, device) + xp::array<std::int8_t>({1}, device)).item() == -128);
  CHECK((xp::array<std::uint8_t>({0}, device) - xp::array<std::uint8_t>({1}, device)).item() == 255);
  CHECK((xp::array<std::int32_t>({65536}, device) * xp::array<std::int32_t>({65536}, device)).item() == 0);
  CHECK((-xp::array<std::int64_t>({std::numeric_limits<std::int64_t>::min()}, device)).item() ==
        std::numeric_limits<std::int64_t>::min());
}

XP_TEST_ON_DEVICES(
    "integer x / 0 is true division: inf, -inf or NaN as NumPy; x % 0 is 0 for integers, NaN for floats") {
  const auto q = xp::array<int>({7, -7, 0}, device) / xp::array<int>({0, 0, 0}, device);
  CHECK(q.dtype() == dtype::float64);
  const std::vector<double> v = q.to_vector();
  CHECK(v[0] == inf);
  CHECK(v[1] == -inf);
  CHECK(std::isnan(v[2]));
  CHECK((xp::array<std::uint8_t>({3}, device) / 0).item() == std::numeric_limits<float>::infinity());
  CHECK((xp::array<int>({7, -7, 0}, device) % 0).to_vector() == std::vector<int>{0, 0, 0});
  CHECK((xp::array<std::uint64_t>({7}, device) % xp::array<std::uint64_t>({0}, device)).item() == 0u);
  CHECK(std::isnan((xp::array<double>({1.0}, device) % 0.0).item()));
}

XP_TEST_ON_DEVICES("% takes the sign of the divisor (Python)") {
  const auto a = xp::array<int>({7, -7, 7, -7, std::numeric_limits<int>::min()}, device);
  const auto b = xp::array<int>({3, 3, -3, -3, -1}, device);
  CHECK((a % b).to_vector() == std::vector<int>{1, 2, -2, -1, 0});
  CHECK((xp::array<std::uint8_t>({7, 200}, device) % xp::array<std::uint8_t>({3, 7}, device)).to_vector() ==
        std::vector<std::uint8_t>{1, 4});
  const std::vector<double> f =
      (xp::array<double>({5.5, -5.5, 5.5}, device) % xp::array<double>({2, 2, -2}, device)).to_vector();
  CHECK(f == std::vector<double>{1.5, 0.5, -0.5});
  const float zero = (xp::array<float>({-4.0f}, device) % 2.0f).item();
  CHECK(zero == 0.0f);
  CHECK(!std::signbit(zero));  // a zero remainder takes the divisor's sign too
  CHECK(std::signbit((xp::array<float>({4.0f}, device) % -2.0f).item()));
  CHECK((xp::array<bool>({true, false}, device) % xp::array<bool>({true, true}, device)).dtype() == dtype::int8);
}

XP_TEST_ON_DEVICES("an integer to a negative integer power is 1, -1 or 0 (truncated)") {
  const auto a = xp::array<std::int64_t>({1, -1, -1, 2, -2, 5, 0}, device);
  const auto b = xp::array<std::int64_t>({-5, -3, -4, -1, -2, -1, 3}, device);
  CHECK(xp::power(a, b).to_vector() == std::vector<std::int64_t>{1, -1, 1, 0, 0, 0, 0});
  CHECK(xp::power(xp::array<std::int8_t>({2}, device), xp::array<std::int8_t>({-1}, device)).item() == 0);
}

XP_TEST_ON_DEVICES("abs(-128) of int8 is -128") {
  CHECK(xp::abs(xp::array<std::int8_t>({-128, -5}, device)).to_vector() == std::vector<std::int8_t>{-128, 5});
  CHECK(xp::abs(xp::array<std::int32_t>({std::numeric_limits<std::int32_t>::min()}, device)).item() ==
        std::numeric_limits<std::int32_t>::min());
}

XP_TEST_ON_DEVICES("bool negation and bool subtraction are TypeErrors") {
  const auto t = xp::array<bool>({true}, device);
  CHECK_THROWS_WITH_AS(-t, doctest::Contains("not supported for bool"), xp::TypeError);
  CHECK_THROWS_WITH_AS(xp::negative(t), doctest::Contains("not supported for bool"), xp::TypeError);
  CHECK_THROWS_WITH_AS(t - t, doctest::Contains("subtract: not supported for bool"), xp::TypeError);
  CHECK((t + t).item() == true);  // bool addition is logical or, as NumPy
}

// ---- NaN ----

XP_TEST_ON_DEVICES("NaN wins in maximum, minimum, max, min and clip") {
  const auto a = xp::array<double>({qnan, 1, 2}, device);
  const auto b = xp::array<double>({1, qnan, 3}, device);
  const std::vector<double> hi = xp::maximum(a, b).to_vector(), lo = xp::minimum(a, b).to_vector();
  CHECK((std::isnan(hi[0]) && std::isnan(hi[1]) && hi[2] == 3));
  CHECK((std::isnan(lo[0]) && std::isnan(lo[1]) && lo[2] == 2));
  CHECK(std::isnan(xp::max(a).item()));
  CHECK(std::isnan(xp::min(b).item()));
  CHECK(std::isnan(xp::max(xp::array<float>({1, 2, std::nanf(""), 0}, device)).item()));
  const auto m = xp::array<double>({{1, qnan}, {2, 3}}, device);
  const std::vector<double> columns = xp::max(m, 0).to_vector();
  CHECK((columns[0] == 2 && std::isnan(columns[1])));
  const std::vector<double> clipped = xp::clip(xp::array<double>({-1, qnan, 5}, device), 0.0, 1.0).to_vector();
  CHECK((clipped[0] == 0 && std::isnan(clipped[1]) && clipped[2] == 1));
  CHECK(std::isnan(xp::clip(xp::array<double>({0.5}, device), qnan, 1.0).item()));
}

XP_TEST_ON_DEVICES("argmax and argmin report the first NaN, else the first extremum") {
  const auto f = xp::array<double>({1, qnan, 5, qnan}, device);
  CHECK(xp::argmax(f).item() == 1);
  CHECK(xp::argmin(f).item() == 1);
  CHECK(xp::argmax(xp::array<float>({-INFINITY, -INFINITY}, device)).item() == 0);
  CHECK(xp::argmin(xp::array<int>({3, 1, 2, 1}, device)).item() == 1);
  std::vector<float> long_run(100000, 1.0f);
  long_run[77777] = 2.0f;
  long_run[88888] = 2.0f;
  CHECK(xp::argmax(xp::array<float>(long_run, device)).item() == 77777);  // blocks keep the first
  long_run[99999] = std::nanf("");
  long_run[99998] = std::nanf("");
  CHECK(xp::argmax(xp::array<float>(long_run, device)).item() == 99998);
}

XP_TEST_ON_DEVICES("max, min, argmax and argmin that reduce nothing are ValueErrors, even with no output") {
  const auto a = xp::zeros<float>({0, 0}, device);
  CHECK_THROWS_WITH_AS(xp::max(a, 0), "max: zero-size array to reduction operation maximum which has no identity",
                       xp::ValueError);
  CHECK_THROWS_WITH_AS(xp::min(a, 1, true), "min: zero-size array to reduction operation minimum which has no identity",
                       xp::ValueError);
  CHECK_THROWS_WITH_AS(xp::argmax(a, 1), "argmax: attempt to get argmax of an empty sequence", xp::ValueError);
  CHECK_THROWS_WITH_AS(xp::argmin(xp::zeros<float>({2, 0, 0}, device), -2),
                       "argmin: attempt to get argmin of an empty sequence", xp::ValueError);
  CHECK_THROWS_AS(xp::min(xp::zeros<std::int32_t>({3, 0}, device)), xp::ValueError);
  CHECK_THROWS_AS(xp::max(xp::zeros<std::int32_t>({0, 4}, device), 0), xp::ValueError);
  // Three elements per output and no output: an empty result.
  const auto rows = xp::zeros<float>({0, 3}, device);
  CHECK(xp::max(rows, 1).shape() == xp::Shape(0));
  CHECK(xp::argmin(rows, 1).shape() == xp::Shape(0));
  // Reducing over no axis reduces one element into each output: nothing is empty.
  CHECK(xp::max(a, xp::Axes(std::vector<int>{})).shape() == xp::Shape(0, 0));
}

XP_TEST_ON_DEVICES("the other reductions of nothing: mean, var, std are NaN; sum, prod, all, any their identities") {
  const auto a = xp::zeros<float>({3, 0}, device);
  CHECK(std::isnan(xp::mean(a).item()));
  const std::vector<float> means = xp::mean(a, 1).to_vector();
  CHECK((means.size() == 3 && std::isnan(means[0]) && std::isnan(means[2])));
  CHECK(std::isnan(xp::var(a).item()));
  CHECK(std::isnan(xp::std(a).item()));
  CHECK(xp::sum(a, 1).to_vector() == std::vector<float>{0, 0, 0});
  CHECK(xp::sum(a, 0).shape() == xp::Shape(0));
  CHECK(xp::sum(a).item() == 0.0f);
  CHECK(xp::prod(a, 1).to_vector() == std::vector<float>{1, 1, 1});
  CHECK(xp::all(a, 1).to_vector() == std::vector<bool>{true, true, true});
  CHECK(xp::all(a).item() == true);
  CHECK(xp::any(a).item() == false);
  CHECK(xp::norm(a).item() == 0.0f);
}

XP_TEST_ON_DEVICES("argmax and argmin take one axis or all of them, in C order over the array") {
  const auto a = xp::array<float>({{1, 3, 3}, {2, 0, 2}}, device);
  CHECK(xp::argmax(a).item() == 1);
  CHECK(xp::argmin(a).item() == 4);
  CHECK(xp::argmax(a, 1).to_vector() == std::vector<std::int64_t>{1, 0});
  CHECK(xp::argmin(a, -2).to_vector() == std::vector<std::int64_t>{0, 1, 1});
  CHECK(xp::argmax(a.transpose()).item() == 2);  // the view's C order: (1, 0) of the (3, 2) view
  CHECK(xp::argmax(a, 1, true).shape() == xp::Shape(2, 1));
  CHECK(xp::argmax(a).dtype() == dtype::int64);
  CHECK_THROWS_WITH_AS(xp::argmax(a, {0, 1}), "argmax: takes one axis or all of them, not 2", xp::ValueError);
}

// ---- Accuracy ----

XP_TEST_ON_DEVICES("float sums are as accurate as pairwise summation, on every device") {
  constexpr std::int64_t n = 1 << 24;
  const auto a = xp::full<float>({n}, 0.1f, device);
  const double expected = static_cast<double>(0.1f) * n;
  CHECK(std::abs(xp::sum(a).item() - expected) / expected < 1e-6);  // a sequential float sum stalls at 2^21
  const auto m = xp::full<float>({4096, 4096}, 0.1f, device);
  const std::vector<float> rows = xp::sum(m, 1).to_vector(), columns = xp::sum(m, 0).to_vector();
  CHECK(std::abs(rows[17] - 409.6f) < 1e-3f);
  CHECK(std::abs(columns[4000] - 409.6f) < 1e-3f);
}

TEST_CASE("CPU float sums split the same way for any thread count") {
  // Values whose float32 sum depends on the order of the additions, in shapes that take each walk
  // (rows, blocks of few long rows, columns split into row blocks) and odd lengths.
  const auto values = xp::random::uniform<float>(-1, 1, {1 << 20});
  const auto odd = values(xp::slice(0, 999 * 1001));
  const std::vector<xp::ndarray<float>> sums_of = {values,
                                                   values.reshape({1024, 1024}),
                                                   values.reshape({16, 65536}),
                                                   values.reshape({65536, 16}),
                                                   values.reshape({4, 262144}),
                                                   values.reshape({2, 524288}),
                                                   odd.reshape({999, 1001}),
                                                   odd.reshape({1001, 999}),
                                                   odd.reshape({3, 333333})};
  const auto sums = [&] {
    std::vector<float> all;
    for (const auto& x : sums_of) {
      for (const auto& part : {xp::sum(x), xp::sum(x, 0), xp::sum(x, -1), xp::mean(x, -1)}) {
        const std::vector<float> v = part.to_vector();
        all.insert(all.end(), v.begin(), v.end());
      }
    }
    return bits_of(all);
  };
  const auto one = with_threads(1, sums);
  for (int threads : {2, 3, 4, 7}) {
    CAPTURE(threads);
    CHECK(with_threads(threads, sums) == one);
  }
}

// ---- Threads ----

TEST_CASE("loops under 2^15 elements run on the calling thread, larger ones on OpenMP's threads") {
  const auto highest_thread = [](std::int64_t n) {
    const auto thread_of = [](float) { return static_cast<std::int32_t>(omp_get_thread_num()); };
    return with_threads(2, [&] { return xp::max(xp::transform(thread_of, xp::zeros<float>({n}))).item(); });
  };
  CHECK(highest_thread((1 << 15) - 1) == 0);
  CHECK(highest_thread(1 << 15) == 1);
  CHECK(highest_thread(1 << 20) == 1);
}
