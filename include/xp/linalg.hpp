#pragma once
/// \file
/// Matrix products with NumPy's rules:
/// \code{.cpp}
///   auto c = xp::matmul(a, b);   // stacks in the last two axes, batch axes broadcast; 1-D operands
///                                // promoted to a row (a) or a column (b), that axis removed again
///   auto d = xp::dot(a, b);      // 0-d: multiply; 1-D . 1-D: inner product; N-D: contracts a's last
///                                // axis with b's second-to-last (not mx.nd.dot, which takes b's first)
///   xp::matmul(a, b, out);       // out of the result's shape, dtype and device, else an error
/// \endcode
/// The result dtype is the operands' promoted dtype. float32 and float64 run on BLAS (OpenBLAS on
/// CPUs, cuBLAS on GPUs; TF32 on GPUs only with XP_ALLOW_TF32=1), the other dtypes on the library's own
/// kernels: exact, integers wrapping around, bool an OR of ANDs. Transposed and F-ordered views go to
/// BLAS as they lie; other layouts are copied first.
#include "xp/export.hpp"
#include "xp/ndarray.hpp"
#include "xp/promotion.hpp"

namespace xp {

/// \cond DETAIL
namespace detail {

enum class Product : bool { matmul, dot };

/// The product into a new array, or into *out (returned).
XP_API ArrayCore product(Product kind, const ArrayCore& a, const ArrayCore& b, const ArrayCore* out);
namespace recorded {  ///< the same, recorded for backward while autograd records (lib/autograd)
XP_API ArrayCore product(Product kind, const ArrayCore& a, const ArrayCore& b, const ArrayCore* out);
}

/// `ndarray<R>` of the promoted type for typed operands, `ndarray<>` when one is run-time typed.
template <class A, class B>
auto product_face(ArrayCore result) {
  if constexpr (std::is_same_v<A, ndarray<>> || std::is_same_v<B, ndarray<>>) return ndarray<>(std::move(result));
  else return ndarray<promote_t<typename A::value_type, typename B::value_type>>(std::move(result));
}

}  // namespace detail
/// \endcond

/// Stamps out a product: name(a, b) and name(a, b, out).
#define XP_PRODUCT_FUNCTION(name)                                                                       \
  template <detail::array_face A, detail::array_face B>                                                 \
  auto name(const A& a, const B& b) {                                                                   \
    return detail::product_face<A, B>(detail::recorded::product(detail::Product::name, a, b, nullptr)); \
  }                                                                                                     \
  template <detail::array_face A, detail::array_face B, detail::array_face O>                           \
  const O& name(const A& a, const B& b, const O& out) {                                                 \
    detail::recorded::product(detail::Product::name, a, b, &out);                                       \
    return out;                                                                                         \
  }

/// NumPy's matmul: stacks of matrices in the last two axes, batch axes broadcast; with `out`, into it.
///@{
XP_PRODUCT_FUNCTION(matmul)
///@}
/// NumPy's dot: a's last axis contracted with b's second-to-last; with `out`, into it.
///@{
XP_PRODUCT_FUNCTION(dot)
///@}
#undef XP_PRODUCT_FUNCTION

}  // namespace xp
