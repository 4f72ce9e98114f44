#pragma once
/// \file
/// Sorting and searching along an axis, NumPy's names and result types:
/// \code{.cpp}
///   xp::sort(a)  xp::sort(a, 0)  xp::sort(a, std::nullopt)   (the last axis; axis 0; the flattened array)
///   xp::argsort(a, -1)  xp::partition(a, 2)  xp::argpartition(a, {0, 3})  xp::lexsort({b, a})
///   xp::searchsorted(s, v)  xp::searchsorted(s, v, "right", sorter)  xp::digitize(x, bins)
///   auto u = xp::unique(a, {.return_index = true, .return_counts = true});  u.values  u.index  u.counts
/// \endcode
/// Sorts are stable on every device: equal elements keep their input order, -0.0 equals 0.0, NaNs
/// come last (complex numbers: by real part, then imaginary part, NaNs last in each). argsort gives
/// int64 positions along the axis. partition and argpartition check kth as NumPy does and then sort
/// the whole axis (a radix sort takes linear time): the result is one of the orders NumPy allows.
/// lexsort sorts by the last key first. searchsorted's sorted array is 1-d; queries of any shape give
/// int64 positions of that shape, in the promoted dtype of both. unique sorts the flattened array (or
/// the slices along `axis`, lexicographically) and equates NaNs, as NumPy 2; finding how many values
/// there are reads one count back from the device: unique is the one synchronising call here.
/// GPUs sort with CUB's DeviceRadixSort, CPUs with a parallel radix sort.
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "xp/export.hpp"
#include "xp/ndarray.hpp"
#include "xp/shape_functions.hpp"

namespace xp {

/// What unique returns besides the values (NumPy's return_* flags), and along which axis.
struct UniqueOptions {
  bool return_index = false;  ///< the position of each value's first occurrence
  bool return_inverse = false;  ///< each element's value number (the input's shape, or one per slice)
  bool return_counts = false;  ///< how often each value occurs
  std::optional<int> axis = std::nullopt;  ///< nullopt: the flattened array
};

/// unique's results; the arrays not asked for are empty.
template <class A>
struct UniqueResult {
  A values;  ///< the sorted distinct values (slices along the axis)
  ndarray<std::int64_t> index;  ///< where each value first occurs (return_index)
  ndarray<std::int64_t> inverse;  ///< each element's value number (return_inverse)
  ndarray<std::int64_t> counts;  ///< how often each value occurs (return_counts)
};

/// \cond DETAIL
namespace detail {
enum class SortKind : std::uint8_t { sort, argsort };

struct UniqueCores {
  ArrayCore values, index{xp::dtype::int64}, inverse{xp::dtype::int64}, counts{xp::dtype::int64};
};

/// The same as the public functions call them: recorded for backward while autograd records (lib/autograd).
namespace recorded {
XP_API ArrayCore sort(SortKind kind, const ArrayCore& a, std::optional<int> axis);
}  // namespace recorded
/// NumPy's checks of partition's kth: ValueError "kth(=5) out of bounds (3)".
XP_API void check_kth(std::string_view op, const ArrayCore& a, std::span<const std::int64_t> kth, int axis);
XP_API ArrayCore lexsort(std::span<const ArrayCore* const> keys, int axis);
XP_API ArrayCore searchsorted(const ArrayCore& sorted, const ArrayCore& v, std::string_view side,
                              const ArrayCore* sorter);
XP_API ArrayCore digitize(const ArrayCore& x, const ArrayCore& bins, bool right);
XP_API UniqueCores unique(const ArrayCore& a, const UniqueOptions& options);
}  // namespace detail
/// \endcond

/// The elements sorted along `axis` (nullopt: the flattened array, 1-d).
template <detail::array_face A>
A sort(const A& a, std::optional<int> axis = -1) {
  return A(detail::recorded::sort(detail::SortKind::sort, a, axis));
}

/// The int64 positions that sort `a` along `axis` (nullopt: positions in the flattened array).
template <detail::array_face A>
ndarray<std::int64_t> argsort(const A& a, std::optional<int> axis = -1) {
  return ndarray<std::int64_t>(detail::recorded::sort(detail::SortKind::argsort, a, axis));
}

/// `a` along `axis` with the elements at the kth positions where a sort puts them, smaller ones
/// before and larger ones after (here: sorted).
template <detail::array_face A>
A partition(const A& a, std::span<const std::int64_t> kth, int axis = -1) {
  detail::check_kth("partition", a, kth, axis);
  return sort(a, axis);
}
/// partition at one position.
template <detail::array_face A>
A partition(const A& a, std::int64_t kth, int axis = -1) {
  return partition(a, std::span(&kth, 1), axis);
}
/// partition at the listed positions.
template <detail::array_face A>
A partition(const A& a, std::initializer_list<std::int64_t> kth, int axis = -1) {
  return partition(a, std::span(kth.begin(), kth.size()), axis);
}

/// The int64 positions that partition `a` (see partition).
template <detail::array_face A>
ndarray<std::int64_t> argpartition(const A& a, std::span<const std::int64_t> kth, int axis = -1) {
  detail::check_kth("argpartition", a, kth, axis);
  return argsort(a, axis);
}
/// argpartition at one position.
template <detail::array_face A>
ndarray<std::int64_t> argpartition(const A& a, std::int64_t kth, int axis = -1) {
  return argpartition(a, std::span(&kth, 1), axis);
}
/// argpartition at the listed positions.
template <detail::array_face A>
ndarray<std::int64_t> argpartition(const A& a, std::initializer_list<std::int64_t> kth, int axis = -1) {
  return argpartition(a, std::span(kth.begin(), kth.size()), axis);
}

/// The int64 positions that sort by several keys of one shape along `axis`: the last key first, ties
/// by the one before it, and so on.
template <detail::array_face A>
ndarray<std::int64_t> lexsort(std::span<const A> keys, int axis = -1) {
  return ndarray<std::int64_t>(detail::lexsort(detail::pointers_to(keys), axis));
}
/// lexsort of keys in braces: xp::lexsort({b, a}) sorts by a, then b.
template <detail::array_face A>
ndarray<std::int64_t> lexsort(std::initializer_list<A> keys, int axis = -1) {
  return lexsort(std::span<const A>(keys.begin(), keys.size()), axis);
}
/// lexsort of a run-time list of keys.
template <detail::array_face A>
ndarray<std::int64_t> lexsort(const std::vector<A>& keys, int axis = -1) {
  return lexsort(std::span<const A>(keys), axis);
}

/// Where each element of v would go in the 1-d `sorted` (sorted by `sorter`'s positions when given):
/// before equal elements ("left") or after them ("right"); int64, v's shape.
template <detail::array_face A, detail::array_face B>
ndarray<std::int64_t> searchsorted(const A& sorted, const B& v, std::string_view side = "left") {
  return ndarray<std::int64_t>(detail::searchsorted(sorted, v, side, nullptr));
}
/// searchsorted in `sorted` ordered by the positions `sorter` (NumPy's argsort of it).
template <detail::array_face A, detail::array_face B, detail::array_face S>
ndarray<std::int64_t> searchsorted(const A& sorted, const B& v, std::string_view side, const S& sorter) {
  return ndarray<std::int64_t>(detail::searchsorted(sorted, v, side, &sorter));
}

/// The bin of each element of x: i with bins[i-1] <= x < bins[i] for increasing bins
/// (bins[i-1] < x <= bins[i] with right), the mirror image for decreasing ones; int64.
template <detail::array_face A, detail::array_face B>
ndarray<std::int64_t> digitize(const A& x, const B& bins, bool right = false) {
  return ndarray<std::int64_t>(detail::digitize(x, bins, right));
}

/// The sorted distinct values of `a` (NaNs as one), and what options ask for.
template <detail::array_face A>
UniqueResult<A> unique(const A& a, const UniqueOptions& options = {}) {
  detail::UniqueCores u = detail::unique(a, options);
  return {A(std::move(u.values)), ndarray<std::int64_t>(std::move(u.index)),
          ndarray<std::int64_t>(std::move(u.inverse)), ndarray<std::int64_t>(std::move(u.counts))};
}

}  // namespace xp
