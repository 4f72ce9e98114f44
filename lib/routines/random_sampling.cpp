// The Generator's sampling routines made of its draws and the library's operations: permuted and
// shuffled arrays (taken in the order of a permutation), choice, multinomial and dirichlet. Whatever is summed is
// summed on the host or in a fixed order of elementwise operations, never by a device's reduction, so
// the results are the same bits on every device.
#include <algorithm>
#include <cmath>
#include <functional>
#include <numeric>

#include "core/layout.hpp"
#include "xp/creation.hpp"
#include "xp/indexing.hpp"
#include "xp/random.hpp"
#include "xp/shape_functions.hpp"
#include "xp/sorting.hpp"

namespace xp::random {

using xp::detail::ArrayCore;
using xp::detail::RandomCall;

namespace {

std::int64_t axis_length(const ArrayCore& a, int axis, const char* name) {
  XP_CHECK(a.ndim() > 0, ValueError, name, ": a 0-d array has no axis to reorder");
  return a.shape()[xp::detail::normalize_axis(axis, a.ndim(), name)];
}

// NumPy's checks of choice's probabilities (within sqrt(eps) of summing to 1).
void check_probabilities(const std::vector<double>& p, std::int64_t n) {
  XP_CHECK(static_cast<std::int64_t>(p.size()) == n, ValueError, "choice: a and p must have same size (", n, " and ",
           p.size(), ")");
  for (const double v : p) XP_CHECK(v >= 0, ValueError, "choice: Probabilities are not non-negative (", v, ")");
  const double total = std::accumulate(p.begin(), p.end(), 0.0);
  XP_CHECK(std::abs(total - 1) <= 1.4901161193847656e-08, ValueError, "choice: probabilities do not sum to 1 (sum ",
           total, ")");
}

std::int64_t count_of(const Shape& size) {
  return std::accumulate(size.begin(), size.end(), std::int64_t{1}, std::multiplies<>());
}

}  // namespace

ArrayCore Generator::permuted(const ArrayCore& a, int axis) {
  const std::int64_t n = axis_length(a, axis, "permutation");
  return take(ndarray<>(a), ndarray<>(permutation(n, a.device())), axis);
}

void Generator::shuffle_in_place(const ArrayCore& a, int axis) {
  axis_length(a, axis, "shuffle");
  ndarray<>(permuted(a, axis)).copyto(ndarray<>(a));
}

ndarray<std::int64_t> Generator::choice(std::int64_t n, const Shape& size, bool replace, const std::vector<double>& p,
                                        Device device) {
  const std::int64_t count = count_of(size);
  XP_CHECK(n > 0 || count == 0, ValueError, "choice: a must be greater than 0 unless no samples are taken (a = ", n,
           ")");
  if (!p.empty()) check_probabilities(p, n);
  if (replace) {
    if (p.empty()) return integers(0, n, size, false, device);
    std::vector<double> cdf(p.size());
    std::partial_sum(p.begin(), p.end(), cdf.begin());
    for (double& v : cdf) v /= cdf.back();
    return searchsorted(array(cdf, device), random(size, device), "right");
  }
  XP_CHECK(count <= n, ValueError, "choice: Cannot take a larger sample than population when replace is False (", count,
           " > ", n, ")");
  if (p.empty()) return ndarray<std::int64_t>(permutation(n, device)(xp::slice(0, count)).reshape(size));
  const auto nonzero = std::count_if(p.begin(), p.end(), [](double v) { return v > 0; });
  XP_CHECK(nonzero >= count, ValueError, "choice: Fewer non-zero entries in p than size (", nonzero, " < ", count, ")");
  const ndarray<double> keys = standard_exponential({n}, device) / array(p, device);
  return ndarray<std::int64_t>(argsort(keys)(xp::slice(0, count)).reshape(size));
}

ArrayCore Generator::chosen(const ArrayCore& a, const Shape& size, bool replace, const std::vector<double>& p) {
  const std::int64_t n = axis_length(a, 0, "choice");
  const ndarray<std::int64_t> positions = choice(n, size, replace, p, a.device());
  return take(ndarray<>(a), ndarray<>(positions), 0);
}

ndarray<std::int64_t> Generator::multinomial(std::int64_t n, const std::vector<double>& pvals, const Shape& size,
                                             Device device) {
  XP_CHECK(n >= 0, ValueError, "multinomial: n < 0 (n = ", n, ")");
  XP_CHECK(!pvals.empty(), ValueError, "multinomial: pvals must have at least 1 element");
  for (const double v : pvals)
    XP_CHECK(v >= 0 && v <= 1, ValueError, "multinomial: pvals < 0, pvals > 1 or pvals contains NaNs (", v, ")");
  const double head = std::accumulate(pvals.begin(), pvals.end() - 1, 0.0);
  XP_CHECK(head <= 1 + 1e-12, ValueError, "multinomial: sum(pvals[:-1]) > 1.0 (", head, ")");
  ndarray<std::int64_t> remaining = full<std::int64_t>(size, n, device);
  std::vector<ArrayCore> columns;
  double p_left = 1;
  for (std::size_t j = 0; j + 1 < pvals.size(); ++j) {
    const double p = p_left > 0 ? std::min(pvals[j] / p_left, 1.0) : 0.0;
    const ndarray<std::int64_t> counts(
        draw({.distribution = RandomCall::binomial_of_counts, .a = p, .counts = remaining.data()}, size, dtype::int64,
             device));
    remaining = remaining - counts;
    columns.push_back(counts);
    p_left -= pvals[j];
  }
  columns.push_back(remaining);
  return ndarray<std::int64_t>(xp::detail::stack(xp::detail::pointers_to<ArrayCore>(columns), -1));
}

ArrayCore Generator::dirichlet_core(const std::vector<double>& alpha, const Shape& size, Device device) {
  for (const double a : alpha) XP_CHECK(a >= 0, ValueError, "dirichlet: alpha < 0 (", a, ")");
  const auto k = static_cast<std::int64_t>(alpha.size());
  std::vector<ndarray<double>> columns;
  if (k > 0 && *std::max_element(alpha.begin(), alpha.end()) < 0.1) {
    // Gamma numbers of such shapes underflow to 0 together: break a stick with beta numbers instead.
    ndarray<double> rest = full<double>(size, 1.0, device);
    for (std::int64_t j = 0; j + 1 < k; ++j) {
      const double after = std::accumulate(alpha.begin() + j + 1, alpha.end(), 0.0);
      const ndarray<double> v = after > 0 ? beta(alpha[j], after, size, device) : full<double>(size, 1.0, device);
      columns.push_back(rest * v);
      rest = rest * (1.0 - v);
    }
    columns.push_back(rest);
  } else {
    ndarray<double> total = full<double>(size, 0.0, device);
    for (const double a : alpha) {
      columns.push_back(a > 0 ? standard_gamma(a, size, device) : full<double>(size, 0.0, device));
      total = total + columns.back();
    }
    for (ndarray<double>& column : columns) column = column / total;
  }
  if (k == 0) {
    Shape empty_simplex = size;
    empty_simplex.push_back(0);
    return zeros<double>(empty_simplex, device);
  }
  std::vector<ArrayCore> cores(columns.begin(), columns.end());
  return xp::detail::stack(xp::detail::pointers_to<ArrayCore>(cores), -1);
}

}  // namespace xp::random
