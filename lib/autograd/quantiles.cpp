// median, quantile and percentile: the reduced axes moved last and merged, a sort along them, and the
// elements at positions that depend only on the count and q (NumPy's methods, computed here on the
// host), interpolated as NumPy's _lerp does. Built of recorded operations, so gradients reach the
// picked elements.
#include <cmath>
#include <complex>
#include <limits>
#include <vector>

#include "autograd/graph.hpp"
#include "core/layout.hpp"
#include "xp/creation.hpp"
#include "xp/shape_functions.hpp"
#include "xp/sorting.hpp"
#include "xp/statistics.hpp"

namespace xp::detail {

namespace {

using Op = ElementwiseOp;

ArrayCore apply(Op op, const ArrayCore& a, const ArrayCore& b) {
  const std::array<Operand, 2> operands{Operand{&a, {}}, Operand{&b, {}}};
  return recorded::elementwise(op, operands);
}
ArrayCore apply(Op op, const ArrayCore& a, double b) {
  const std::array<Operand, 2> operands{Operand{&a, {}}, Operand{nullptr, scalar_value(b)}};
  return recorded::elementwise(op, operands);
}

// `a` with the reduced axes last, merged into one, sorted along it; and the result's shape with
// keepdims (the kept axes, extent-1 reduced ones).
struct SortedRows {
  ArrayCore sorted;
  Shape kept_dims;
};

SortedRows sorted_rows(std::string_view op, const ArrayCore& a, const Axes& axes, bool keepdims) {
  const std::array<bool, kMaxNdim> reduced = reduced_axes(op, axes, a.ndim());
  std::vector<int> order;
  Shape moved, kept_dims;
  std::int64_t length = 1;
  for (int i = 0; i < a.ndim(); ++i) {
    if (reduced[i]) continue;
    order.push_back(i);
    moved.push_back(a.shape()[i]);
  }
  for (int i = 0; i < a.ndim(); ++i) {
    if (reduced[i]) {
      order.push_back(i);
      length *= a.shape()[i];
    }
    if (!reduced[i] || keepdims) kept_dims.push_back(reduced[i] ? 1 : a.shape()[i]);
  }
  moved.push_back(length);
  const ArrayCore rows = recorded::reshape(recorded::transpose(a, order), moved);
  return {recorded::sort(SortKind::sort, rows, -1), kept_dims};
}

ArrayCore at(const ArrayCore& rows, std::int64_t position) {
  std::vector<Index> indices(static_cast<std::size_t>(rows.ndim() - 1), Index(slice()));
  indices.emplace_back(position);
  return recorded::index(rows, indices);
}

// NaN where the slice holds a NaN (sorted last), else `result`.
ArrayCore nan_where_nan(const ArrayCore& sorted, const ArrayCore& result) {
  if (!is_inexact_dtype(sorted.dtype())) return result;
  const ArrayCore last = at(sorted, -1);
  const ArrayCore nan = apply(Op::not_equal, last, last);
  constexpr double quiet = std::numeric_limits<double>::quiet_NaN();
  const ScalarValue value =
      is_complex(result.dtype()) ? scalar_value(std::complex<double>(quiet, quiet)) : scalar_value(quiet);
  const std::array<Operand, 3> operands{Operand{&nan, {}}, Operand{nullptr, value}, Operand{&result, {}}};
  return recorded::elementwise(Op::where, operands);
}

// Where q falls among n sorted elements: two positions and the weight of the second; `discrete`
// methods pick one position (gamma unused).
struct Pick {
  std::int64_t previous = 0, next = 0;
  double gamma = 0;
  bool discrete = false;
};

std::int64_t discrete_boundary(double index, bool take_previous) {
  const double previous = std::floor(index);
  return std::max<std::int64_t>(0, static_cast<std::int64_t>(take_previous ? previous : previous + 1));
}

// NumPy's continuous methods: the virtual index n q + alpha + q (1 - alpha - beta) - 1.
double virtual_index(std::int64_t n, double q, double alpha, double beta) {
  return static_cast<double>(n) * q + (alpha + q * (1 - alpha - beta)) - 1;
}

std::optional<Pick> discrete_pick(std::string_view method, std::int64_t n, double q) {
  const double last = static_cast<double>(n - 1);
  auto one = [](std::int64_t position) { return Pick{position, position, 0, true}; };
  if (method == "lower") return one(static_cast<std::int64_t>(std::floor(last * q)));
  if (method == "higher") return one(static_cast<std::int64_t>(std::ceil(last * q)));
  if (method == "nearest") return one(static_cast<std::int64_t>(std::nearbyint(last * q)));  // half to even
  if (method == "inverted_cdf") {
    const double index = static_cast<double>(n) * q - 1;
    return one(discrete_boundary(index, index == std::floor(index)));
  }
  if (method == "closest_observation") {
    const double index = static_cast<double>(n) * q - 1 - 0.5;
    const double previous = std::floor(index);
    return one(discrete_boundary(index, index == previous && std::fmod(previous, 2.0) != 0));
  }
  return std::nullopt;
}

std::optional<double> continuous_index(std::string_view method, std::int64_t n, double q) {
  const double last = static_cast<double>(n - 1);
  if (method == "linear") return last * q;
  if (method == "midpoint") return 0.5 * (std::floor(last * q) + std::ceil(last * q));
  if (method == "averaged_inverted_cdf") return static_cast<double>(n) * q - 1;
  if (method == "interpolated_inverted_cdf") return virtual_index(n, q, 0, 1);
  if (method == "hazen") return virtual_index(n, q, 0.5, 0.5);
  if (method == "weibull") return virtual_index(n, q, 0, 0);
  if (method == "median_unbiased") return virtual_index(n, q, 1 / 3.0, 1 / 3.0);
  if (method == "normal_unbiased") return virtual_index(n, q, 3 / 8.0, 3 / 8.0);
  return std::nullopt;
}

Pick pick_for(std::string_view op, std::string_view method, std::int64_t n, double q) {
  if (const auto discrete = discrete_pick(method, n, q)) return *discrete;
  const auto index = continuous_index(method, n, q);
  XP_CHECK(index.has_value(), ValueError, op, ": '", method, "' is not a valid method");
  Pick pick{static_cast<std::int64_t>(std::floor(*index)), 0, 0, false};
  pick.next = pick.previous + 1;
  if (*index >= static_cast<double>(n - 1)) pick.previous = pick.next = -1;  // past the end: the largest
  if (*index < 0) pick.previous = pick.next = 0;
  pick.gamma = *index - static_cast<double>(pick.previous);
  if (method == "averaged_inverted_cdf") pick.gamma = pick.gamma == 0 ? 0.5 : 1.0;
  if (method == "midpoint") pick.gamma = std::fmod(*index, 1.0) == 0 ? 0.0 : 0.5;
  return pick;
}

// NumPy's _lerp with a scalar weight: a + (b - a) t below one half, b - (b - a)(1 - t) from it. As
// NumPy computes it: b - a in the input's dtype (integers wrap), then the weight: a scalar q's keeps a
// float dtype, a list of q's (NumPy's float64 array) makes it float64, as it does integers.
ArrayCore interpolated(const ArrayCore& a, const ArrayCore& b, double t, bool scalar_q) {
  ArrayCore difference = apply(Op::subtract, b, a);
  if (!scalar_q && is_inexact_dtype(difference.dtype()) && difference.dtype() != xp::dtype::float64)
    difference = recorded::astype(difference, xp::dtype::float64);
  if (t >= 0.5) return apply(Op::subtract, b, apply(Op::multiply, difference, 1 - t));
  return apply(Op::add, a, apply(Op::multiply, difference, t));
}

}  // namespace

ArrayCore recorded::quantile(const ArrayCore& a, std::span<const double> q, bool scalar_q, const Axes& axes,
                             std::string_view method, bool keepdims, std::string_view op) {
  XP_CHECK(!is_complex(a.dtype()), TypeError, op, ": a must be an array of real numbers, not ", a.dtype());
  const double scale = op == "percentile" ? 100.0 : 1.0;
  for (const double value : q)
    XP_CHECK(value >= 0 && value <= scale, ValueError, op == "percentile" ? "Percentiles" : "Quantiles",
             " must be in the range [0, ", scale == 1 ? "1" : "100", "] (", value, ")");
  const SortedRows rows = sorted_rows(op, a, axes, keepdims);
  const std::int64_t n = rows.sorted.shape()[rows.sorted.ndim() - 1];
  XP_CHECK(n > 0, IndexError, op, ": index -1 is out of bounds for axis 0 with size 0");
  std::vector<ArrayCore> results;
  for (const double value : q) {
    const Pick pick = pick_for(op, method, n, value / scale);
    ArrayCore result;
    if (pick.discrete) result = at(rows.sorted, pick.previous);
    else result = interpolated(at(rows.sorted, pick.previous), at(rows.sorted, pick.next), pick.gamma, scalar_q);
    results.push_back(recorded::reshape(nan_where_nan(rows.sorted, result), rows.kept_dims));
  }
  if (scalar_q) return results.front();
  return recorded::stack(pointers_to(std::span<const ArrayCore>(results)), 0);
}

ArrayCore recorded::median(const ArrayCore& a, const Axes& axes, bool keepdims) {
  const SortedRows rows = sorted_rows("median", a, axes, keepdims);
  const std::int64_t n = rows.sorted.shape()[rows.sorted.ndim() - 1];
  const xp::dtype result_type = is_inexact_dtype(a.dtype()) ? a.dtype() : xp::dtype::float64;
  // NumPy's mean of the middle one or two: accumulated in float32 for 2-byte floats, rounded once.
  const xp::dtype compute = is_two_byte_float(result_type) ? xp::dtype::float32 : result_type;
  const ArrayCore values = rows.sorted.dtype() == compute ? rows.sorted : recorded::astype(rows.sorted, compute);
  if (n == 0) {  // NumPy's mean of nothing: NaN (both parts for complex numbers)
    constexpr double quiet = std::numeric_limits<double>::quiet_NaN();
    const std::complex<double> nan(quiet, quiet);
    const xp::dtype wide = is_complex(result_type) ? xp::dtype::complex128 : xp::dtype::float64;
    return detail::astype(
        full(rows.kept_dims, wide, is_complex(wide) ? static_cast<const void*>(&nan) : &quiet, a.device()),
        result_type);
  }
  ArrayCore middle = at(values, n / 2);
  if (n % 2 == 0) middle = apply(Op::divide, apply(Op::add, at(values, n / 2 - 1), middle), 2.0);
  // One complex middle element is divided by 1, as NumPy's mean divides it: with NumPy's quotient an
  // infinite real part makes the imaginary part NaN (a real element is unchanged, so reals skip it).
  else if (is_complex(compute)) middle = apply(Op::divide, middle, 1.0);
  ArrayCore result = nan_where_nan(values, middle);
  if (result.dtype() != result_type) result = recorded::astype(result, result_type);
  return recorded::reshape(result, rows.kept_dims);
}

}  // namespace xp::detail
