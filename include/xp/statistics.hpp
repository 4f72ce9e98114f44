#pragma once
/// \file
/// Counting and order statistics, NumPy's names and result types:
/// \code{.cpp}
///   xp::count_nonzero(a, 1)  xp::bincount(x)  xp::bincount(x, weights, 10)
///   auto [hist, edges] = xp::histogram(a, 20);  xp::histogram(a, 4, {{0.0, 1.0}});  xp::histogram(a, edges)
///   xp::median(a)  xp::median(a, {0, 2}, true)  xp::quantile(a, 0.9)  xp::percentile(a, {25.0, 75.0}, 1, "nearest")
/// \endcode
/// count_nonzero and bincount give int64 (bincount with weights: float64). bincount's and histogram's
/// output sizes or ranges come from the data when not given: they read the extremes back from the
/// device. median is NumPy's (the mean of the two middle elements: float64 for integers, the input's
/// dtype otherwise). quantile and percentile take every method NumPy has ("linear", "lower",
/// "higher", "nearest", "midpoint", "inverted_cdf", "averaged_inverted_cdf", "closest_observation",
/// "interpolated_inverted_cdf", "hazen", "weibull", "median_unbiased", "normal_unbiased") with NumPy's
/// result dtypes: a scalar q keeps a float input's dtype, a list of q gives float64 and a leading
/// axis of len(q); the discrete methods keep the input's dtype. A slice holding a NaN gives NaN.
/// Gradients flow through median, quantile and percentile (to the elements they pick).
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <span>
#include <string_view>
#include <utility>
#include <vector>

#include "xp/axes.hpp"
#include "xp/export.hpp"
#include "xp/math.hpp"
#include "xp/ndarray.hpp"
#include "xp/reductions.hpp"

namespace xp {

/// histogram's results: the counts (int64) and the bins' edges (float64, or the input's float dtype).
template <class E>
struct Histogram {
  ndarray<std::int64_t> hist;  ///< the count of each bin
  E edges;  ///< the bins' edges, one more than the bins
};

/// \cond DETAIL
namespace detail {
struct HistogramCores {
  ArrayCore hist, edges;
};
XP_API ArrayCore bincount(const ArrayCore& x, const ArrayCore* weights, std::int64_t minlength);
XP_API HistogramCores histogram(const ArrayCore& a, std::int64_t bins, std::optional<std::pair<double, double>> range,
                                const ArrayCore* edges);

/// The same as the public functions call them: recorded for backward while autograd records (lib/autograd).
namespace recorded {
XP_API ArrayCore median(const ArrayCore& a, const Axes& axes, bool keepdims);
/// scalar_q: q holds one value and the result has no q axis (NumPy's weak scalar q).
XP_API ArrayCore quantile(const ArrayCore& a, std::span<const double> q, bool scalar_q, const Axes& axes,
                          std::string_view method, bool keepdims, std::string_view op);
}  // namespace recorded

/// median's dtype: float64 for bool and integers, the input's otherwise.
template <class A>
auto median_face_tag() {
  if constexpr (std::is_same_v<A, ndarray<>>) return std::type_identity<ndarray<>>{};
  else if constexpr (is_inexact_dtype(dtype_of<typename A::value_type>)) return std::type_identity<A>{};
  else return std::type_identity<ndarray<double>>{};
}
template <class A>
using median_face = typename decltype(median_face_tag<A>())::type;

/// histogram's edges: the input's float dtype, else float64.
template <class A>
using edges_face = median_face<A>;
}  // namespace detail
/// \endcond

/// The number of non-zero elements over the axes (all by default), int64.
template <detail::array_face A>
ndarray<std::int64_t> count_nonzero(const A& a, const Axes& axes = std::nullopt, bool keepdims = false) {
  return ndarray<std::int64_t>(sum(not_equal(a, 0), axes, keepdims));
}

/// How often each value 0, 1, ..., max(x) occurs in the 1-d non-negative integers x (at least
/// minlength bins), int64.
template <detail::array_face A>
ndarray<std::int64_t> bincount(const A& x, std::int64_t minlength = 0) {
  return ndarray<std::int64_t>(detail::bincount(x, nullptr, minlength));
}
/// The sums of the weights of each value's occurrences, float64.
template <detail::array_face A, detail::array_face W>
ndarray<double> bincount(const A& x, const W& weights, std::int64_t minlength = 0) {
  return ndarray<double>(detail::bincount(x, &weights, minlength));
}

/// The counts of a's elements in `bins` equal bins over `range` (a's extremes by default).
template <detail::array_face A>
Histogram<detail::edges_face<A>> histogram(const A& a, std::int64_t bins = 10,
                                           std::optional<std::pair<double, double>> range = std::nullopt) {
  detail::HistogramCores h = detail::histogram(a, bins, range, nullptr);
  return {ndarray<std::int64_t>(std::move(h.hist)), detail::edges_face<A>(std::move(h.edges))};
}
/// The counts of a's elements between the given increasing edges (the last bin closed).
template <detail::array_face A, detail::array_face E>
Histogram<E> histogram(const A& a, const E& edges) {
  detail::HistogramCores h = detail::histogram(a, 0, std::nullopt, &edges);
  return {ndarray<std::int64_t>(std::move(h.hist)), E(std::move(h.edges))};
}

/// The median over the axes (all by default).
template <detail::array_face A>
detail::median_face<A> median(const A& a, const Axes& axes = std::nullopt, bool keepdims = false) {
  return detail::median_face<A>(detail::recorded::median(a, axes, keepdims));
}

/// The q-th quantile (q in [0, 1]) over the axes by `method`.
template <detail::array_face A>
ndarray<> quantile(const A& a, double q, const Axes& axes = std::nullopt, std::string_view method = "linear",
                   bool keepdims = false) {
  return ndarray<>(detail::recorded::quantile(a, std::span(&q, 1), true, axes, method, keepdims, "quantile"));
}
/// Several quantiles: a leading axis of len(q).
template <detail::array_face A>
ndarray<> quantile(const A& a, std::span<const double> q, const Axes& axes = std::nullopt,
                   std::string_view method = "linear", bool keepdims = false) {
  return ndarray<>(detail::recorded::quantile(a, q, false, axes, method, keepdims, "quantile"));
}
/// Several quantiles in braces: xp::quantile(a, {0.25, 0.75}).
template <detail::array_face A>
ndarray<> quantile(const A& a, std::initializer_list<double> q, const Axes& axes = std::nullopt,
                   std::string_view method = "linear", bool keepdims = false) {
  return quantile(a, std::span(q.begin(), q.size()), axes, method, keepdims);
}

/// quantile with q in percent ([0, 100]).
template <detail::array_face A>
ndarray<> percentile(const A& a, double q, const Axes& axes = std::nullopt, std::string_view method = "linear",
                     bool keepdims = false) {
  return ndarray<>(detail::recorded::quantile(a, std::span(&q, 1), true, axes, method, keepdims, "percentile"));
}
/// Several percentiles: a leading axis of len(q).
template <detail::array_face A>
ndarray<> percentile(const A& a, std::span<const double> q, const Axes& axes = std::nullopt,
                     std::string_view method = "linear", bool keepdims = false) {
  return ndarray<>(detail::recorded::quantile(a, q, false, axes, method, keepdims, "percentile"));
}
/// Several percentiles in braces: xp::percentile(a, {25.0, 75.0}).
template <detail::array_face A>
ndarray<> percentile(const A& a, std::initializer_list<double> q, const Axes& axes = std::nullopt,
                     std::string_view method = "linear", bool keepdims = false) {
  return percentile(a, std::span(q.begin(), q.size()), axes, method, keepdims);
}

}  // namespace xp
