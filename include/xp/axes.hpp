#pragma once
/// \file
/// The axes an operation runs over, NumPy's `axis` argument:
/// - every axis: leave it out, or std::nullopt (NumPy's axis=None);
/// - one axis: an integer, xp::sum(a, 1), also a run-time std::int64_t or std::size_t;
/// - a list: braces or a run-time vector, xp::sum(a, {0, 2}), xp::sum(a, axes) with `std::vector<int>`
///   axes; an empty vector is no axis at all (NumPy's axis=()).
/// Negative axes count from the end. `{}` is refused at compile time: it would read both as "the
/// default, every axis" and as "the empty list, no axis", which NumPy tells apart; write std::nullopt
/// or `std::vector<int>`{}. A bool is refused too: xp::sum(a, true) is a keepdims slip, not axis 1.
#include <array>
#include <concepts>
#include <initializer_list>
#include <limits>
#include <optional>
#include <span>
#include <vector>

#include "xp/error.hpp"
#include "xp/export.hpp"
#include "xp/ndim.hpp"

namespace xp {

/// The integer types an axis may be given as (not bool).
template <class I>
concept axis_integer = std::integral<I> && !std::same_as<I, bool>;

/// NumPy's `axis` argument: every axis, one, or a list (see the file's notes).
class XP_API Axes {
 public:
  Axes() = delete;  ///< `{}`: see above
  Axes(std::nullopt_t) {}  ///< every axis, as axis=None (implicit, as are the others)
  /// One axis.
  template <axis_integer I>
  Axes(I axis) : count_(1) {
    axes_[0] = checked(axis);
  }
  Axes(bool) = delete;
  Axes(std::initializer_list<int> axes) { assign(axes); }  ///< a list in braces
  /// A run-time list, converting as braces do; empty: no axis.
  template <axis_integer I>
  Axes(const std::vector<I>& axes) {
    assign(axes);
  }
  Axes(std::span<const int> axes) { assign(axes); }  ///< a run-time list

  bool all() const noexcept { return count_ < 0; }  ///< every axis (axis=None)
  /// The axes as given (negative ones not yet normalised); empty when all().
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
  int count_ = -1;  ///< -1: all
};

}  // namespace xp
