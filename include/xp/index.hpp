#pragma once
/// \file
/// Indices for ndarray::operator(): an integer picks one position and drops the axis; xp::slice keeps
/// it, with Python's start/stop/step rules (negative values count from the end, missing ends mean the
/// whole extent, out-of-range ends are clamped). a(1, xp::slice(0, 2)) is NumPy's a[1, 0:2].
#include <concepts>
#include <cstdint>
#include <optional>

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

/// One index of ndarray::operator(): a position or a slice.
class XP_API Index {
 public:
  template <std::integral I>
  Index(I position)
      : position_(static_cast<std::int64_t>(position)) {
  }  ///< a position, dropping the axis (implicit, as is the slice's)
  Index(slice s) : slice_(s), is_slice_(true) {}  ///< a slice, keeping the axis

  bool is_slice() const noexcept { return is_slice_; }  ///< a slice, not a position
  std::int64_t position() const noexcept { return position_; }  ///< the position, when not a slice
  const xp::slice& as_slice() const noexcept { return slice_; }  ///< the slice, when is_slice()

 private:
  std::int64_t position_ = 0;
  xp::slice slice_;
  bool is_slice_ = false;
};

}  // namespace xp
