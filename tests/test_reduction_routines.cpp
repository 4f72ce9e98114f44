// The nan-reductions, average and ptp: values by hand (NumPy's), their dtypes, NumPy's warnings and
// errors, and gradients by finite differences.
#include <doctest/doctest.h>

#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "device_cases.hpp"
#include "gradient_check.hpp"
#include "xp/reduction_routines.hpp"
#include "xp/xp.hpp"

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

// Collects the library's warnings while alive.
class WarningLog {
 public:
  WarningLog() {
    xp::utils::set_warning_handler([this](std::string_view message) { messages.emplace_back(message); });
  }
  ~WarningLog() { xp::utils::set_warning_handler(nullptr); }
  WarningLog(const WarningLog&) = delete;
  WarningLog& operator=(const WarningLog&) = delete;
  std::vector<std::string> messages;
};

// [[1, nan, 3], [nan, nan, nan]] as float64.
xp::ndarray<double> with_nan_row(xp::Device device) {
  return xp::array<double>({1, kNaN, 3, kNaN, kNaN, kNaN}, {2, 3}, device);
}

bool same(double x, double y) { return (std::isnan(x) && std::isnan(y)) || x == y; }

bool same(const std::vector<double>& x, const std::vector<double>& y) {
  if (x.size() != y.size()) return false;
  for (std::size_t k = 0; k < x.size(); ++k)
    if (!same(x[k], y[k])) return false;
  return true;
}

}  // namespace

XP_TEST_ON_DEVICES("nan-reductions: nansum and nanprod count NaN as 0 and 1; integers as sum and prod") {
  const auto a = with_nan_row(device);
  CHECK(xp::nansum(a).item() == 4.0);
  CHECK(xp::nansum(a, 1).to_vector() == std::vector<double>{4, 0});
  CHECK(xp::nanprod(a, 1).to_vector() == std::vector<double>{3, 1});
  CHECK(xp::nanprod(a, 0, true).shape() == xp::Shape{1, 3});
  const auto i = xp::array<std::int8_t>({100, 100, 100}, {3}, device);
  const xp::ndarray<std::int64_t> total = xp::nansum(i);  // int64 as NumPy's sum
  CHECK(total.item() == 300);
  const auto f = xp::array<float>({1.5f, NAN, 2.5f}, {3}, device);
  const xp::ndarray<float> float_total = xp::nansum(f);
  CHECK(float_total.item() == 4.0f);
  const auto z = xp::array<std::complex<double>>({{1, 2}, {kNaN, 0}, {3, -1}}, {3}, device);
  CHECK(xp::nansum(z).item() == std::complex<double>(4, 1));
}

XP_TEST_ON_DEVICES("nan-reductions: nanmax and nanmin look past NaN; an all-NaN slice is NaN and warns") {
  const auto a = with_nan_row(device);
  WarningLog log;
  CHECK(xp::nanmax(a).item() == 3.0);
  CHECK(xp::nanmin(a).item() == 1.0);
  CHECK(log.messages.empty());
  CHECK(same(xp::nanmax(a, 1).to_vector(), {3, kNaN}));
  REQUIRE(log.messages.size() == 1);
  CHECK(log.messages[0] == "All-NaN slice encountered");
  CHECK(same(xp::nanmin(a, 0).to_vector(), {1, kNaN, 3}));
  const auto minus_inf = xp::array<double>({-kInf, kNaN}, {2}, device);
  CHECK(xp::nanmax(minus_inf).item() == -kInf);  // a number, though the NaN stand-in is also -inf
  const auto i = xp::array<std::int32_t>({4, -2, 7}, {3}, device);
  const xp::ndarray<std::int32_t> largest = xp::nanmax(i);
  CHECK(largest.item() == 7);
  CHECK_THROWS_AS(xp::nanmax(xp::zeros<double>({0}, device)), xp::ValueError);
  const auto z = xp::array<std::complex<double>>({{1, 5}, {kNaN, 0}, {1, 7}, {0, 9}}, {4}, device);
  CHECK(xp::nanmax(z).item() == std::complex<double>(1, 7));  // by real part, then imaginary
  CHECK(xp::nanmin(z).item() == std::complex<double>(0, 9));
}

XP_TEST_ON_DEVICES("nan-reductions: nanargmax and nanargmin skip NaN; an all-NaN slice is a ValueError") {
  const auto a = xp::array<float>({NAN, 2, 5, NAN, -1, 5}, {2, 3}, device);
  CHECK(xp::nanargmax(a).item() == 2);
  CHECK(xp::nanargmin(a).item() == 4);
  const xp::ndarray<std::int64_t> rows = xp::nanargmax(a, 1);
  CHECK(rows.to_vector() == std::vector<std::int64_t>{2, 2});
  CHECK(xp::nanargmin(a, 1, true).shape() == xp::Shape{2, 1});
  CHECK_THROWS_AS(xp::nanargmin(a, 0), xp::ValueError);  // column 0 is all NaN
  CHECK_THROWS_WITH_AS(xp::nanargmax(with_nan_row(device), 1), "nanargmax: All-NaN slice encountered", xp::ValueError);
  CHECK_THROWS_WITH_AS(xp::nanargmin(with_nan_row(device), 1), "nanargmin: All-NaN slice encountered", xp::ValueError);
  CHECK(xp::nanargmax(with_nan_row(device)).item() == 2);
  CHECK_THROWS_AS(xp::nanargmax(a, {0, 1}), xp::ValueError);  // one axis or all, as argmax
}

XP_TEST_ON_DEVICES("nan-reductions: nanmean, nanvar and nanstd over the numbers alone; NumPy's warnings") {
  const auto a = xp::array<double>({1, kNaN, 3, 2, 6, kNaN, 4, 8, kNaN}, {3, 3}, device);
  CHECK(xp::nanmean(a).item() == doctest::Approx(24.0 / 6));
  CHECK(xp::nanmean(a, 1).to_vector() == std::vector<double>{2, 4, 6});
  // Row 1: {2, 6} about 4 -> 8 / 2; row 2: {4, 8} about 6 -> 8 / 2; with ddof 1: / 1.
  CHECK(xp::nanvar(a, 1).to_vector() == std::vector<double>{1, 4, 4});
  CHECK(xp::nanvar(a, 1, false, 1).to_vector() == std::vector<double>{2, 8, 8});
  CHECK(xp::nanstd(a, 1, true).to_vector() == std::vector<double>{1, 2, 2});
  CHECK(xp::nanstd(a, 1, true).shape() == xp::Shape{3, 1});
  WarningLog log;
  CHECK(same(xp::nanmean(with_nan_row(device), 1).to_vector(), {2, kNaN}));
  REQUIRE(log.messages.size() == 1);
  CHECK(log.messages[0] == "Mean of empty slice");
  CHECK(same(xp::nanvar(a, 1, false, 2).to_vector(), {kNaN, kNaN, kNaN}));
  REQUIRE(log.messages.size() == 2);
  CHECK(log.messages[1] == "Degrees of freedom <= 0 for slice.");
  const auto f = xp::array<float>({1, NAN, 2, 4}, {4}, device);
  const xp::ndarray<float> mean = xp::nanmean(f);
  CHECK(mean.item() == doctest::Approx(7.0 / 3));
  const auto z = xp::array<std::complex<float>>({{1, 1}, {NAN, 0}, {3, 3}}, {3}, device);
  const xp::ndarray<float> spread = xp::nanvar(z);  // real for complex, as NumPy's: |(1+i) - (2+2i)|^2 = 2
  CHECK(spread.item() == doctest::Approx(2.0));
  const auto i = xp::array<std::int16_t>({1, 2, 4}, {3}, device);
  const xp::ndarray<double> int_mean = xp::nanmean(i);
  CHECK(int_mean.item() == doctest::Approx(7.0 / 3));
}

XP_TEST_ON_DEVICES("average: the mean, or weighted by weights of a's shape or of its extents along the axes") {
  const auto a = xp::arange<double>(0, 6, 1, device).reshape({2, 3});
  CHECK(xp::average(a).item() == 2.5);
  CHECK(xp::average(a, 0).to_vector() == std::vector<double>{1.5, 2.5, 3.5});
  const auto w = xp::array<double>({1, 0, 3}, {3}, device);
  // Row 0: (0 + 0 + 6) / 4; row 1: (3 + 0 + 15) / 4.
  CHECK(xp::average(a, 1, w).to_vector() == std::vector<double>{1.5, 4.5});
  CHECK(xp::average(a, -1, w, true).shape() == xp::Shape{2, 1});
  const auto full = xp::array<double>({1, 1, 1, 0, 0, 2}, {2, 3}, device);
  CHECK(xp::average(a, std::nullopt, full).item() == doctest::Approx((0 + 1 + 2 + 10) / 5.0));
  CHECK(xp::average(a, 0, full).to_vector() == std::vector<double>{0, 1, 4});
  const auto b = xp::arange<double>(0, 24, 1, device).reshape({2, 3, 4});
  const auto w2 = xp::array<double>({1, 2, 3, 4, 5, 6, 7, 8}, {4, 2}, device);  // extents of axes 2, 0
  const auto both = xp::average(b, {2, 0}, w2);
  const auto by_hand = xp::sum(b * xp::transpose(w2).reshape({2, 1, 4}), {0, 2}) / 36.0;
  CHECK(both.to_vector() == by_hand.to_vector());
  const auto ints = xp::array<std::int32_t>({1, 2}, {2}, device);
  const xp::ndarray<double> weighted =
      xp::average(ints, 0, xp::array<std::int32_t>(std::vector<std::int32_t>{1, 3}, {2}, device));
  CHECK(weighted.item() == 1.75);
  CHECK_THROWS_WITH_AS(xp::average(a, std::nullopt, w),
                       "average: the axes must be given when a's shape (2, 3) and the weights' shape (3,) differ",
                       xp::TypeError);
  CHECK_THROWS_WITH_AS(xp::average(a, 0, w), "average: the weights' shape (3,) is not a's extents along the axes, (2,)",
                       xp::ValueError);
  CHECK_THROWS_WITH_AS(xp::average(a, 1, xp::array<double>({1, -1, 0}, {3}, device)),
                       "average: the weights sum to zero over a slice, which cannot be normalized", xp::ValueError);
}

XP_TEST_ON_DEVICES("ptp: max - min in the array's dtype; bool is a TypeError") {
  const auto a = xp::array<std::uint8_t>({250, 3, 9, 1}, {2, 2}, device);
  const xp::ndarray<std::uint8_t> range = xp::ptp(a);
  CHECK(range.item() == 249);
  CHECK(xp::ptp(a, 1).to_vector() == std::vector<std::uint8_t>{247, 8});
  const auto i = xp::array<std::int8_t>({-128, 127}, {2}, device);
  CHECK(xp::ptp(i).item() == -1);  // 255 wraps, as NumPy's int8
  CHECK(std::isnan(xp::ptp(xp::array<double>({2.5, kNaN}, {2}, device)).item()));
  CHECK_THROWS_AS(xp::ptp(xp::array<bool>({true, false}, {2}, device)), xp::TypeError);
  CHECK_THROWS_AS(xp::ptp(xp::zeros<float>({0}, device)), xp::ValueError);
}

XP_TEST_ON_DEVICES("nan-reductions, average, ptp: gradients reach the numbers and skip the NaN") {
  using xp_test::check_gradients;
  constexpr auto on_cpu = xp_test::Differences::on_cpu;
  const auto a = xp::array<double>({0.3, -0.6, 2.43, 0.8, 1.5, -2.0}, {2, 3}, device);
  const auto w = xp::array<double>({0.5, 2.0, 1.25}, {3}, device);
  check_gradients([](const xp_test::Inputs& in) { return xp::nanmean(in[0], 1) * xp::nanmax(in[0], 0).sum(); }, {a},
                  1e-6, on_cpu);
  check_gradients([](const xp_test::Inputs& in) { return xp::nanvar(in[0], 0, false, 1) + xp::nanstd(in[0], 1).sum(); },
                  {a}, 1e-6, on_cpu);
  check_gradients([](const xp_test::Inputs& in) { return xp::average(in[0], 1, in[1]) * xp::ptp(in[0], 1); }, {a, w},
                  1e-6, on_cpu);
  const auto holes = xp::array<double>({0.3, kNaN, 2.43, 0.8}, {4}, device);
  auto x = holes.copyto(device);
  x.attach_grad();
  {
    xp::autograd::record recording;
    xp::nansum(x * 2.0).backward();
  }
  CHECK(x.grad().to_vector() == std::vector<double>{2, 0, 2, 2});
}

XP_TEST_ON_DEVICES("reductions: dtype converts and accumulates in that type, as NumPy's dtype argument") {
  const auto bytes = xp::array<std::int8_t>({100, 100, 100}, {3}, device);
  const auto wrapped = xp::sum(bytes, std::nullopt, false, xp::dtype::int8);  // 300 wraps to 44, as NumPy's
  CHECK(wrapped.dtype() == xp::dtype::int8);
  CHECK(wrapped.item<int>() == 44);
  const auto f = xp::array<float>({1.5f, 2.5f, 4.0f, 0.25f}, {2, 2}, device);
  const auto wide = xp::sum(f, 1, true, xp::dtype::float64);
  CHECK(wide.dtype() == xp::dtype::float64);
  CHECK(wide.shape() == xp::Shape{2, 1});
  CHECK(wide.as<double>().to_vector() == std::vector<double>{4.0, 4.25});
  CHECK(xp::prod(xp::array<std::int32_t>({2, 3}, {2}, device), 0, false, xp::dtype::float32).item<float>() == 6.0f);
  const auto halves = xp::mean(xp::array<std::int16_t>({1, 2}, {2}, device), 0, false, xp::dtype::float32);
  CHECK(halves.dtype() == xp::dtype::float32);
  CHECK(halves.item<float>() == 1.5f);
  const auto z = xp::array<std::complex<float>>({{1, 1}, {3, 3}}, {2}, device);
  const auto spread = xp::var(z, 0, false, 0, xp::dtype::complex128);  // real, in complex128's float64
  CHECK(spread.dtype() == xp::dtype::float64);
  CHECK(spread.item<double>() == doctest::Approx(2.0));
  CHECK(xp::std(f, std::nullopt, false, 1, xp::dtype::float64).dtype() == xp::dtype::float64);
  CHECK_THROWS_WITH_AS(xp::mean(f, 0, false, xp::dtype::int32),
                       "mean: cannot accumulate in int32 (only floating and complex types: NumPy's integer mean "
                       "truncates)",
                       xp::TypeError);
  const auto holes = xp::array<float>({1, NAN, 2, 4}, {2, 2}, device);
  CHECK(xp::nansum(holes, 1, false, xp::dtype::float64).as<double>().to_vector() == std::vector<double>{1, 6});
  CHECK(xp::nanmean(holes, 0, false, xp::dtype::float64).as<double>().to_vector() == std::vector<double>{1.5, 4});
  CHECK(xp::nanvar(holes, 1, false, 0, xp::dtype::float64).as<double>().to_vector() == std::vector<double>{0, 1});
  CHECK_THROWS_AS(xp::nanstd(holes, 1, false, 0, xp::dtype::int64), xp::TypeError);
}

XP_TEST_ON_DEVICES("reductions: out receives the result under NumPy's same_kind rule, and is returned") {
  const auto f = xp::array<float>({1.5f, 2.5f, 4.0f, 0.25f, -1.0f, 3.0f}, {2, 3}, device);
  const auto out = xp::zeros<double>({2}, device);
  const auto& written = xp::sum(f, 1, false, out);
  CHECK(&written == &out);
  CHECK(out.to_vector() == std::vector<double>{8.0, 2.25});
  CHECK(xp::max(f, 0, false, xp::zeros<float>({3}, device)).to_vector() == std::vector<float>{1.5f, 2.5f, 4.0f});
  const auto rows = xp::zeros<std::int64_t>({2, 1}, device);
  xp::argmax(f, 1, true, rows);
  CHECK(rows.to_vector() == std::vector<std::int64_t>{2, 2});
  CHECK_THROWS_WITH_AS(xp::sum(f, 1, false, xp::zeros<double>({3}, device)),
                       "sum: the output has shape (3,), the result (2,)", xp::ValueError);
  CHECK_THROWS_WITH_AS(xp::sum(f, 1, false, xp::zeros<std::int32_t>({2}, device)),
                       "sum: cannot write a float32 result into a int32 output (NumPy's same_kind casting)",
                       xp::TypeError);
  CHECK_THROWS_WITH_AS(xp::argmin(f, 1, false, xp::zeros<std::int32_t>({2}, device)),
                       "argmin: cannot write a int64 result into a int32 output (NumPy's safe casting)", xp::TypeError);
  const auto variance = xp::zeros<double>({3}, device);
  xp::var(f, 0, false, 1, std::nullopt, variance);  // float32 into float64: same_kind
  CHECK(variance.to_vector()[0] == doctest::Approx(0.78125));
  const auto means = xp::zeros<double>({2}, device);
  xp::mean(f, 1, false, xp::dtype::float64, means);
  CHECK(means.to_vector()[1] == doctest::Approx(0.75));
  const auto holes = xp::array<float>({1, NAN, 2, 4}, {2, 2}, device);
  const auto largest = xp::zeros<float>({2}, device);
  xp::nanmax(holes, 0, false, largest);
  CHECK(largest.to_vector() == std::vector<float>{2, 4});
  const auto positions = xp::zeros<std::int64_t>({2}, device);
  xp::nanargmin(holes, 1, false, positions);
  CHECK(positions.to_vector() == std::vector<std::int64_t>{0, 0});
  const auto spread = xp::zeros<float>({2}, device);
  xp::nanvar(holes, 1, false, 0, std::nullopt, spread);
  CHECK(spread.to_vector() == std::vector<float>{0, 1});
  const auto peaks = xp::zeros<float>({}, device);
  xp::ptp(holes, std::nullopt, false, peaks);
  CHECK(std::isnan(peaks.item()));
}

XP_TEST_ON_DEVICES("reductions: a write into out is recorded for backward") {
  auto x = xp::array<double>({1, 2, 3, 4}, {2, 2}, device);
  x.attach_grad();
  const auto out = xp::zeros<double>({2}, device);
  {
    xp::autograd::record recording;
    xp::sum(x * x, 0, false, out);
    (out * 3.0).backward();
  }
  CHECK(x.grad().to_vector() == std::vector<double>{6, 12, 18, 24});
}
