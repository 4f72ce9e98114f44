// bincount and histogram: bin numbers counted on the device (lib/cpu's private histograms, CUB's
// DeviceHistogram). histogram finds each element's bin by a search in the edges, NumPy's rule for
// every kind of bins (half-open bins, the last one closed), so even and uneven edges agree with it.
#include <array>
#include <cmath>
#include <vector>

#include "api/array/array_factory.hpp"
#include "api/array/device_services.hpp"
#include "api/ops/axis_ops.hpp"
#include "core/stream_capture.hpp"
#include "xp/creation.hpp"
#include "xp/memory_pool.hpp"
#include "xp/profile.hpp"
#include "xp/sorting.hpp"
#include "xp/statistics.hpp"

namespace xp::detail {

namespace {

using Op = ElementwiseOp;

ArrayCore as_type(const ArrayCore& a, xp::dtype type) { return a.dtype() == type ? a : astype(a, type); }

std::int64_t extreme(Reduction r, const ArrayCore& x) {
  check_no_wait_in_capture(x.device(), "bincount");
  std::int64_t value = 0;
  item_as(reduce(r, x, std::nullopt, false, 0), xp::dtype::int64, &value);
  return value;
}

// Counts (weights null) or sums of weights over `bins` bins of the int64 bin numbers.
ArrayCore count_into_bins(const ArrayCore& bin_of, const ArrayCore* weights, std::int64_t bins, const Exec& exec) {
  const ArrayCore numbers = contiguous(bin_of, exec);
  const ArrayCore values = weights ? contiguous(as_type(*weights, xp::dtype::float64), exec) : ArrayCore();
  const ArrayCore out = new_array(Shape{bins}, weights ? xp::dtype::float64 : xp::dtype::int64, exec);
  order_access(exec, {&numbers, weights ? &values : nullptr, &out});
  const BincountCall call{static_cast<const std::int64_t*>(numbers.raw_data()),
                          weights ? static_cast<const double*>(values.raw_data()) : nullptr,
                          static_cast<std::int64_t>(numbers.size()),
                          out.raw_data(),
                          bins,
                          &scratch_pool(exec)};
  kernels_for(exec.device).bincount(call, exec);
  return out;
}

ArrayCore scalar_op(Op op, const ArrayCore& a, ScalarValue value) {
  const std::array<Operand, 2> operands{Operand{&a, {}}, Operand{nullptr, value}};
  return elementwise(op, operands);
}

}  // namespace

ArrayCore bincount(const ArrayCore& x, const ArrayCore* weights, std::int64_t minlength) {
  const profile_range profiled("bincount");
  XP_CHECK(x.ndim() == 1, ValueError, "bincount: x must be 1-d, not ", x.ndim(), "-d");
  XP_CHECK(!is_inexact_dtype(x.dtype()) && x.dtype() != xp::dtype::uint64, TypeError,
           "bincount: cannot cast array data from dtype('", x.dtype(),
           "') to dtype('int64') according to the rule 'safe'");
  XP_CHECK(minlength >= 0, ValueError, "bincount: 'minlength' must not be negative, not ", minlength);
  XP_CHECK(!weights || weights->shape() == x.shape(), ValueError,
           "bincount: the weights and list don't have the same length (", weights ? weights->shape() : x.shape(),
           " and ", x.shape(), ")");
  const ArrayCore* const arrays[] = {&x, weights ? weights : &x};
  const Exec exec = exec_on(common_device("bincount", arrays));
  const ArrayCore numbers = as_type(x, xp::dtype::int64);
  std::int64_t bins = minlength;
  if (x.size() > 0) {
    // The output's size depends on the data: one read back of its extremes.
    const std::int64_t low = extreme(Reduction::min, numbers);
    XP_CHECK(low >= 0, ValueError, "bincount: 'list' argument must have no negative elements (found ", low, ")");
    bins = std::max(bins, extreme(Reduction::max, numbers) + 1);
  }
  return count_into_bins(numbers, weights, bins, exec);
}

namespace {

// `value` rounded to `type` as NumPy's arithmetic in it rounds: float32 once; a 2-byte float through
// float32 (its operations compute there), then to its own bits.
double rounded_to(xp::dtype type, double value) {
  const float single = static_cast<float>(value);
  switch (type) {
    case xp::dtype::float16: return static_cast<float>(xp::float16(single));
    case xp::dtype::bfloat16: return static_cast<float>(xp::bfloat16(single));
    case xp::dtype::float32: return single;
    default: return value;
  }
}

// NumPy's linspace in `type`'s arithmetic, on the host: k * step + first, the last edge `last`; and
// its check that the bins have width (ValueError otherwise).
std::vector<double> linspace_in(double first, double last, std::int64_t bins, xp::dtype type) {
  const double delta = rounded_to(type, last - first);
  const double step = rounded_to(type, delta / static_cast<double>(bins));
  std::vector<double> edges(static_cast<std::size_t>(bins) + 1);
  for (std::int64_t k = 0; k <= bins; ++k) {
    const double scaled =
        step == 0 ? rounded_to(type, rounded_to(type, static_cast<double>(k) / static_cast<double>(bins)) * delta)
                  : rounded_to(type, static_cast<double>(k) * step);
    edges[static_cast<std::size_t>(k)] = rounded_to(type, scaled + first);
  }
  edges.back() = last;
  for (std::size_t k = 1; k < edges.size(); ++k)
    XP_CHECK(edges[k - 1] < edges[k], ValueError, "histogram: too many bins for data range: cannot create ", bins,
             " finite-sized bins over [", first, ", ", last, "]");
  return edges;
}

// The edges of `bins` equal bins over the range (in float64, as NumPy's Python floats), or over a's
// extremes (read back; in a float dtype's own arithmetic, as NumPy's), with NumPy's checks and
// widening of an empty range.
ArrayCore even_edges(const ArrayCore& a, std::int64_t bins, std::optional<std::pair<double, double>> range,
                     xp::dtype type) {
  XP_CHECK(bins > 0, ValueError, "histogram: `bins` must be positive, when an integer (", bins, ")");
  double first = 0, last = 1;
  if (range) {
    std::tie(first, last) = *range;
    XP_CHECK(first <= last, ValueError, "histogram: max must be larger than min in range parameter (", first, ", ",
             last, ")");
    XP_CHECK(std::isfinite(first) && std::isfinite(last), ValueError, "histogram: supplied range of [", first, ", ",
             last, "] is not finite");
  } else if (a.size() > 0) {
    check_no_wait_in_capture(a.device(), "histogram without a range");
    item_as(reduce(Reduction::min, a, std::nullopt, false, 0), xp::dtype::float64, &first);
    item_as(reduce(Reduction::max, a, std::nullopt, false, 0), xp::dtype::float64, &last);
    XP_CHECK(std::isfinite(first) && std::isfinite(last), ValueError, "histogram: autodetected range of [", first, ", ",
             last, "] is not finite");
  }
  const xp::dtype arithmetic = !range && a.size() > 0 && is_floating(a.dtype()) ? type : xp::dtype::float64;
  if (first == last) {
    first = rounded_to(arithmetic, first - 0.5);
    last = rounded_to(arithmetic, last + 0.5);
  }
  const std::vector<double> edges = linspace_in(first, last, bins, arithmetic);
  return as_type(from_host(edges.data(), Shape{bins + 1}, xp::dtype::float64, a.device()), type);
}

void check_increasing(const ArrayCore& edges) {
  XP_CHECK(edges.ndim() == 1 && edges.size() >= 1, ValueError, "histogram: bins must be a 1-d array of edges, not ",
           edges.shape());
  std::vector<double> host(edges.size());
  copy_to_host(as_type(edges, xp::dtype::float64), host.data(), "histogram with edges");
  for (std::size_t i = 1; i < host.size(); ++i)
    XP_CHECK(host[i - 1] <= host[i], ValueError, "histogram: `bins` must increase monotonically, when an array (",
             host[i - 1], " before ", host[i], ")");
}

}  // namespace

HistogramCores histogram(const ArrayCore& a, std::int64_t bins, std::optional<std::pair<double, double>> range,
                         const ArrayCore* given_edges) {
  const profile_range profiled("histogram");
  XP_CHECK(!is_complex(a.dtype()), TypeError, "histogram: complex data is not supported");
  const xp::dtype type = is_floating(a.dtype()) ? a.dtype() : xp::dtype::float64;
  if (given_edges) check_increasing(*given_edges);
  const ArrayCore edges = given_edges ? *given_edges : even_edges(a, bins, range, type);
  bins = static_cast<std::int64_t>(edges.size()) - 1;
  const ArrayCore flat = reshape(a, Shape{static_cast<std::int64_t>(a.size())});
  // The bin of x: the edges at or below it, less one; x equal to the last edge is in the last bin;
  // x below the first edge, above the last or NaN goes to an extra bin, dropped.
  const ArrayCore below =
      scalar_op(Op::subtract, searchsorted(edges, flat, "right", nullptr), scalar_value(std::int64_t{1}));
  const Index last_index[] = {bins};
  const ArrayCore last = index(edges, last_index);
  const ArrayCore at_last = [&] {
    const std::array<Operand, 2> operands{Operand{&flat, {}}, Operand{&last, {}}};
    return elementwise(Op::equal, operands);
  }();
  const std::array<Operand, 3> closed{Operand{&at_last, {}}, Operand{nullptr, scalar_value(bins - 1)},
                                      Operand{&below, {}}};
  const ArrayCore numbers = elementwise(Op::where, closed);
  const ArrayCore outside = scalar_op(Op::less, numbers, scalar_value(std::int64_t{0}));
  const std::array<Operand, 3> kept{Operand{&outside, {}}, Operand{nullptr, scalar_value(bins)}, Operand{&numbers, {}}};
  const Exec exec = exec_on(a.device());
  const ArrayCore counts = count_into_bins(elementwise(Op::where, kept), nullptr, bins + 1, exec);
  const Index first_bins[] = {slice(0, bins)};
  return {index(counts, first_bins), edges};
}

}  // namespace xp::detail
