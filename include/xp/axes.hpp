#pragma once
// The axes an operation runs over, NumPy's `axis` argument:
// - every axis: leave it out, or std::nullopt (NumPy's axis=None);
// - one axis: an integer, xp::sum(a, 1), also a run-time std::int64_t or std::size_t;
// - a list: braces or a run-time vector, xp::sum(a, {0, 2}), xp::sum(a, axes) with std::vector<int>
//   axes; an empty vector is no axis at all (NumPy's axis=()).
// Negative axes count from the end. `{}` is refused at compile time: it would read both as "the
// default, every axis" and as "the empty list, no axis", which NumPy tells apart; write std::nullopt
// or std::vector<int>{}. A bool is refused too: xp::sum(a, true) is a keepdims slip, not axis 1.
#include <array>
#include <concepts>
#include <initializer_list>
#include <limits>
#include <optional>
#include <span>
#include <vector>

#include "xp/error.hpp"
#include "xp/ndim.hpp"

namespace xp {

template <class I>
concept axis_integer = std::integral<I> && !std::same_as<I, bool>;

class Axes {
 public:
  Axes() = delete;  // `{}`: see above
  Axes(std::nullopt_t) {}  // NOLINT: every axis, as axis=None
  template <axis_integer I>
  Axes(I axis) : count_(1) {  // NOLINT: implicit by design
    axes_[0] = checked(axis);
  }
  Axes(bool) = delete;
  Axes(std::initializer_list<int> axes) { assign(axes); }
  template <axis_integer I>
  Axes(const std::vector<I>& axes) {  // NOLINT: run-time lists convert as braces do
    assign(axes);
  }
  Axes(std::span<const int> axes) { assign(axes); }  // NOLINT

  bool all() const noexcept { return count_ < 0; }
  std::span<const int> list() const noexcept {
    return {axes_.data(), static_cast<std::size_t>(count_ < 0 ? 0 : count_)};
  }

 private:
  template <class I>
  static int checked(I axis) {
    if constexpr (sizeof(I) >= sizeof(int)) {
      XP_CHECK(axis <= static_cast<I>(std::numeric_limits<int>::max()) &&
                   (std::unsigned_integral<I> || axis >= static_cast<I>(std::numeric_limits<int>::min())),
               ValueError, "axis ", axis, " is out of range");
    }
    return static_cast<int>(axis);
  }
  template <class Range>
  void assign(const Range& axes) {
    XP_CHECK(axes.size() <= static_cast<std::size_t>(kMaxNdim), ValueError, "at most ", kMaxNdim,
             " axes can be given, not ", axes.size());
    count_ = 0;
    for (auto axis : axes) axes_[count_++] = checked(axis);
  }

  std::array<int, kMaxNdim> axes_{};
  int count_ = -1;  // -1: all
};

}  // namespace xp
