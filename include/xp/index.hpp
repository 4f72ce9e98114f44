#pragma once
// Indices for ndarray::operator(): an integer picks one position and drops the axis; xp::slice keeps
// it, with Python's start/stop/step rules (negative values count from the end, missing ends mean the
// whole extent, out-of-range ends are clamped). a(1, xp::slice(0, 2)) is NumPy's a[1, 0:2].
#include <concepts>
#include <cstdint>
#include <optional>

namespace xp {

inline constexpr std::nullopt_t none = std::nullopt;

struct slice {
  std::optional<std::int64_t> start;
  std::optional<std::int64_t> stop;
  std::int64_t step = 1;

  slice() = default;  // ':'
  slice(std::optional<std::int64_t> start_, std::optional<std::int64_t> stop_,
        std::int64_t step_ = 1)
      : start(start_), stop(stop_), step(step_) {}
};

class Index {
 public:
  template <std::integral I>
  Index(I position) : position_(static_cast<std::int64_t>(position)) {}  // NOLINT: implicit by design
  Index(slice s) : slice_(s), is_slice_(true) {}                          // NOLINT

  bool is_slice() const noexcept { return is_slice_; }
  std::int64_t position() const noexcept { return position_; }
  const xp::slice& as_slice() const noexcept { return slice_; }

 private:
  std::int64_t position_ = 0;
  xp::slice slice_;
  bool is_slice_ = false;
};

}  // namespace xp
