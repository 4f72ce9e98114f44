#pragma once
/// \file
/// Indices for ndarray::operator() and ndarray::at(), NumPy's rules:
/// - an integer picks one position and drops the axis; xp::slice keeps it, with Python's
///   start:stop:step (negative values count from the end, missing ends mean the whole extent,
///   out-of-range ends are clamped); xp::newaxis adds an axis of extent 1; xp::ellipsis stands for as
///   many ':' as the other indices leave. These are basic indexing: a(1, xp::slice(0, 2)) is NumPy's
///   a[1, 0:2], a view.
/// - an integer array (any integer dtype) or a bool array (a mask) is advanced indexing: a copy.
///   Index arrays broadcast together; their broadcast shape replaces the axes they index where they
///   stand, or comes first when basic indices separate them (a(0, xp::slice(), idx) with idx of shape
///   (2,) over a (2, 3, 4) array has shape (2, 3), as in NumPy). A mask over k axes is their
///   true positions (xp::nonzero), one index of shape (count,).
#include <concepts>
#include <cstdint>
#include <memory>
#include <optional>
#include <type_traits>

#include "xp/export.hpp"

namespace xp {

/// A missing slice end: xp::slice(xp::none, 2) is Python's [:2].
inline constexpr std::nullopt_t none = std::nullopt;

/// Python's start:stop:step.
struct XP_API slice {
  std::optional<std::int64_t> start;  ///< none: from the beginning (the end for a negative step)
  std::optional<std::int64_t> stop;  ///< none: to the end (the beginning for a negative step)
  std::int64_t step = 1;  ///< not 0

  slice() = default;  ///< ':'
  /// start:stop:step.
  slice(std::optional<std::int64_t> start_, std::optional<std::int64_t> stop_, std::int64_t step_ = 1)
      : start(start_), stop(stop_), step(step_) {}
};

/// The type of xp::newaxis.
struct newaxis_t {
  explicit constexpr newaxis_t() = default;  ///< only xp::newaxis
};
/// NumPy's np.newaxis (None in an index): a new axis of extent 1.
inline constexpr newaxis_t newaxis{};

/// The type of xp::ellipsis.
struct ellipsis_t {
  explicit constexpr ellipsis_t() = default;  ///< only xp::ellipsis
};
/// Python's `...` in an index: ':' for every axis the other indices leave (at most one per index).
inline constexpr ellipsis_t ellipsis{};

/// \cond DETAIL
namespace detail {
class ArrayCore;
}
/// \endcond

/// One index of ndarray::operator() and ndarray::at(): a position, a slice, newaxis, ellipsis or an
/// index array (integers or bools).
class XP_API Index {
 public:
  /// What an index is.
  enum class Kind : std::uint8_t { position, slice, new_axis, ellipsis_mark, array };

  /// A position, dropping the axis (implicit, as the others are). A bool is not a position.
  template <std::integral I>
    requires(!std::same_as<I, bool>)
  Index(I position) : position_(static_cast<std::int64_t>(position)) {}
  Index(slice s) : slice_(s), kind_(Kind::slice) {}  ///< a slice, keeping the axis
  Index(newaxis_t) : kind_(Kind::new_axis) {}  ///< a new axis of extent 1
  Index(ellipsis_t) : kind_(Kind::ellipsis_mark) {}  ///< ':' for the axes the others leave
  /// An integer array or a bool array (a mask), shared (defined in xp/ndarray.hpp).
  template <class A>
    requires std::is_base_of_v<detail::ArrayCore, A>
  Index(const A& array);

  Kind kind() const noexcept { return kind_; }  ///< which of the five it is
  bool is_slice() const noexcept { return kind_ == Kind::slice; }  ///< a slice
  std::int64_t position() const noexcept { return position_; }  ///< the position, when kind() is position
  const xp::slice& as_slice() const noexcept { return slice_; }  ///< the slice, when is_slice()
  const detail::ArrayCore* array() const noexcept { return array_.get(); }  ///< the index array, when kind() is array

 private:
  std::shared_ptr<const detail::ArrayCore> array_;
  std::int64_t position_ = 0;
  xp::slice slice_;
  Kind kind_ = Kind::position;
};

}  // namespace xp
