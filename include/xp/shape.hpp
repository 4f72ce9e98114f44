#pragma once
/// \file
/// Shape and Strides: up to kMaxNdim extents stored inline (no heap, cheap to copy, passed to kernels
/// by value). Strides count elements, not bytes (as PyTorch's, unlike NumPy's).
#include <array>
#include <concepts>
#include <cstdint>
#include <iosfwd>
#include <limits>
#include <span>
#include <string>
#include <vector>

#include "xp/error.hpp"
#include "xp/export.hpp"
#include "xp/ndim.hpp"

namespace xp {
namespace detail {

/// Up to kMaxNdim extents stored inline: what Shape and Strides are (Tag keeps the two apart).
template <class Tag>
class Dims {
 public:
  // Only the first ndim() extents are ever read, and only those are set or copied: shapes are made
  // and copied on every call, so they cost what their axes cost.
  Dims() noexcept {}  ///< no axes: a scalar's shape
  Dims(const Dims& other) noexcept : ndim_(other.ndim_) { copy_extents(other); }  ///< copies the other's axes
  /// Copies the other's axes.
  Dims& operator=(const Dims& other) noexcept {
    ndim_ = other.ndim_;
    copy_extents(other);
    return *this;
  }
  /// Shape{2, 3}, Shape(5), reshape({-1, 3}): any integral extents, whatever their integer type.
  template <std::integral... I>
  Dims(I... extents) {  // implicit: {2, 3} must convert
    static_assert(sizeof...(I) <= kMaxNdim, "arrays have at most kMaxNdim (16) dimensions");
    (push_back(checked(extents)), ...);
  }
  /// From a span of extents; ValueError naming them past kMaxNdim.
  explicit Dims(std::span<const std::int64_t> extents) {
    if (extents.size() > kMaxNdim) [[unlikely]]
      throw_too_many(extents);
    for (std::int64_t e : extents) push_back(e);
  }
  /// Run-time extents: `xp::zeros<float>`(extents), xp::reshape(a, extents) with `std::vector<int>` extents.
  template <std::integral I>
  Dims(const std::vector<I>& extents) {  // implicit, as braces are
    if (extents.size() > kMaxNdim) [[unlikely]] {
      std::vector<std::int64_t> named;
      for (I e : extents) named.push_back(checked(e));
      throw_too_many(named);
    }
    for (I e : extents) push_back(checked(e));
  }

  int ndim() const noexcept { return ndim_; }  ///< the number of axes
  std::int64_t operator[](int axis) const noexcept { return extents_[axis]; }  ///< axis in [0, ndim()), unchecked
  std::int64_t& operator[](int axis) noexcept { return extents_[axis]; }  ///< axis in [0, ndim()), unchecked
  const std::int64_t* begin() const noexcept { return extents_.data(); }  ///< the first extent
  const std::int64_t* end() const noexcept { return extents_.data() + ndim_; }  ///< past the last extent
  std::int64_t* begin() noexcept { return extents_.data(); }  ///< the first extent
  std::int64_t* end() noexcept { return extents_.data() + ndim_; }  ///< past the last extent
  /// The extents as a span.
  std::span<const std::int64_t> span() const noexcept { return {extents_.data(), size_t(ndim_)}; }

  /// Appends an axis; ValueError past kMaxNdim.
  void push_back(std::int64_t extent) {
    XP_CHECK(ndim_ < kMaxNdim, ValueError, "arrays have at most ", kMaxNdim, " dimensions");
    extents_[ndim_++] = extent;
  }

  /// The same axes and extents.
  friend bool operator==(const Dims& a, const Dims& b) noexcept {
    if (a.ndim_ != b.ndim_) return false;
    for (int i = 0; i < a.ndim_; ++i)
      if (a.extents_[i] != b.extents_[i]) return false;
    return true;
  }

 private:
  template <std::integral I>
  static std::int64_t checked(I value) {
    if constexpr (std::is_unsigned_v<I> && sizeof(I) >= sizeof(std::int64_t))
      XP_CHECK(value <= static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()), ValueError, "extent ",
               value, " does not fit in int64");
    return static_cast<std::int64_t>(value);
  }

  // ValueError naming the extents: "17 extents (1, 1, ...): arrays have at most 16 dimensions".
  [[noreturn]] static void throw_too_many(std::span<const std::int64_t> extents);

  void copy_extents(const Dims& other) noexcept {
    for (int axis = 0; axis < ndim_; ++axis) extents_[axis] = other.extents_[axis];
  }

  std::array<std::int64_t, kMaxNdim> extents_;
  int ndim_ = 0;
};

}  // namespace detail

/// An array's extents: Shape{2, 3}, Shape(5), Shape() (see detail::Dims for its members).
using Shape = detail::Dims<struct ShapeTag>;
/// An array's strides in elements, one per axis.
using Strides = detail::Dims<struct StridesTag>;

/// NumPy's notation: "(2, 3)", "(3,)", "()".
XP_API std::ostream& operator<<(std::ostream& out, const Shape& shape);
XP_API std::ostream& operator<<(std::ostream& out, const Strides& strides);  ///< "(3, 1)"
/// The product of the extents (1 for a 0-d shape).
XP_API std::int64_t numel(const Shape& shape) noexcept;
/// C-order (row-major) strides of a shape.
XP_API Strides contiguous_strides(const Shape& shape) noexcept;

}  // namespace xp
