#pragma once
/// \file
/// NumPy's tensor products, lowered to the library's matmul, reshapes and multiplies (so every dtype
/// matmul takes, every device, and autograd records them):
/// \code{.cpp}
///   xp::tensordot(a, b, 2);                 // a's last 2 axes contracted with b's first 2
///   xp::tensordot(a, b, {1, 0}, {0, 2});    // a's axes 1, 0 with b's axes 0, 2, pair by pair
///   xp::outer(a, b);                        // (a.size, b.size): ravel(a)[i] * ravel(b)[j]
///   xp::inner(a, b);                        // the last axes contracted; 0-d operands multiply
///   xp::vdot(a, b);                         // 0-d: conj(ravel(a)) . ravel(b)
///   xp::kron(a, b);                         // the Kronecker product, shapes multiplied axis by axis
///   xp::einsum("bij,bjk->bik", a, b);       // NumPy's subscripts: '...', repeated labels, implicit output
/// \endcode
/// Results have the operands' promoted dtype. Axes that do not match are a ValueError naming both shapes.
#include <cstdint>
#include <string_view>
#include <vector>

#include "xp/export.hpp"
#include "xp/ndarray.hpp"

namespace xp {

/// Sums of products over a's last `axes` axes and b's first `axes` (NumPy's tensordot(a, b, axes)):
/// shape a.shape[:-axes] + b.shape[axes:].
XP_API ndarray<> tensordot(const ndarray<>& a, const ndarray<>& b, std::int64_t axes = 2);
/// Sums of products over a's axes `a_axes` paired with b's `b_axes` (negative: from the end); the
/// result's axes are a's other axes, then b's, in order.
XP_API ndarray<> tensordot(const ndarray<>& a, const ndarray<>& b, const std::vector<int>& a_axes,
                           const std::vector<int>& b_axes);
/// The outer product of the flattened operands: shape (a.size, b.size).
XP_API ndarray<> outer(const ndarray<>& a, const ndarray<>& b);
/// Sums of products over the last axes (of equal length), shape a.shape[:-1] + b.shape[:-1]; a 0-d
/// operand multiplies the other.
XP_API ndarray<> inner(const ndarray<>& a, const ndarray<>& b);
/// The dot product of the flattened operands (of equal size), a conjugated first: 0-d.
XP_API ndarray<> vdot(const ndarray<>& a, const ndarray<>& b);
/// The Kronecker product: the operands' shapes padded with leading 1s to the same rank, each result axis
/// the product of theirs, element (i * nb + j) = a[i] * b[j] along each.
XP_API ndarray<> kron(const ndarray<>& a, const ndarray<>& b);

/// NumPy's einsum: one term of letters per operand (an ellipsis '...' takes the axes the letters leave,
/// broadcasting; a letter twice in a term takes the diagonal), an output after "->" or, without one, the
/// ellipsis axes then the letters used once in alphabetical order. Labels missing from the output are
/// summed. Operands are cast to their promoted dtype first and sums stay in it (bool: OR). Pairs of
/// operands are contracted smallest result first, each by one matmul. ValueError as NumPy's.
XP_API ndarray<> einsum(std::string_view subscripts, const std::vector<ndarray<>>& operands);
/// einsum over the operands given one by one.
template <detail::array_face... A>
ndarray<> einsum(std::string_view subscripts, const A&... operands) {
  return einsum(subscripts, std::vector<ndarray<>>{ndarray<>(operands)...});
}

}  // namespace xp
