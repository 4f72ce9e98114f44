#pragma once
// The axes a reduction runs over: all of them by default (NumPy's axis=None), one (xp::sum(a, 1)) or
// several (xp::sum(a, {0, 2})). Negative axes count from the end.
#include <array>
#include <initializer_list>
#include <optional>
#include <span>
#include <vector>

#include "xp/error.hpp"
#include "xp/ndim.hpp"

namespace xp {

class Axes {
 public:
  Axes() = default;  // all axes
  Axes(std::nullopt_t) {}  // NOLINT: all axes, as axis=None
  Axes(int axis) : count_(1) { axes_[0] = axis; }  // NOLINT: implicit by design
  Axes(std::initializer_list<int> axes) { assign(axes); }
  explicit Axes(const std::vector<int>& axes) { assign(axes); }

  bool all() const noexcept { return count_ < 0; }
  std::span<const int> list() const noexcept {
    return {axes_.data(), static_cast<std::size_t>(count_ < 0 ? 0 : count_)};
  }

 private:
  template <class Range>
  void assign(const Range& axes) {
    XP_CHECK(axes.size() <= static_cast<std::size_t>(kMaxNdim), ValueError, "at most ", kMaxNdim,
             " axes can be given, not ", axes.size());
    count_ = 0;
    for (int axis : axes) axes_[count_++] = axis;
  }

  std::array<int, kMaxNdim> axes_{};
  int count_ = -1;  // -1: all
};

}  // namespace xp
