#pragma once
/// \file
/// NumPy's matrix building routines: `xp::tril(a, k)`, `xp::triu(a, k)` (the elements on and below, or on
/// and above, diagonal k of the last two axes, the others 0; a 1-D array is taken as every row of a square
/// matrix, as NumPy's) and `xp::identity<T>(n)`. tril and triu are where() over a mask, so autograd
/// records them.
#include <cstdint>

#include "xp/creation.hpp"
#include "xp/export.hpp"
#include "xp/ndarray.hpp"

namespace xp {

/// a with the elements above diagonal k of its last two axes zeroed (k > 0: above the main one).
///@{
XP_API ndarray<> tril(const ndarray<>& a, std::int64_t k = 0);
template <class T>
ndarray<T> tril(const ndarray<T>& a, std::int64_t k = 0) {
  return tril(ndarray<>(a), k).template as<T>();
}
///@}
/// a with the elements below diagonal k of its last two axes zeroed.
///@{
XP_API ndarray<> triu(const ndarray<>& a, std::int64_t k = 0);
template <class T>
ndarray<T> triu(const ndarray<T>& a, std::int64_t k = 0) {
  return triu(ndarray<>(a), k).template as<T>();
}
///@}

/// The n x n identity matrix: eye<T>(n).
template <element_type T = float>
ndarray<T> identity(std::int64_t n, Device device = current_device()) {
  return eye<T>(n, std::nullopt, 0, device);
}

}  // namespace xp
