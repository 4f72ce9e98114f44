#pragma once
// Matrix products of the dtypes BLAS does not have (bool and the integers), shared by the CPU loop
// and the CUDA kernel: one element of C is one dot product, exact, wrapping around modulo 2^bits as
// NumPy's integer matmul does; bool products are an OR of ANDs.
#include <cstdint>
#include <type_traits>

#include "xp/host_device.hpp"

namespace xp::kernels {

// sum over p < k of a[p * a_step] * b[p * b_step], in T's arithmetic.
template <class T>
XP_HOST_DEVICE T exact_dot(const T* a, std::int64_t a_step, const T* b, std::int64_t b_step, std::int64_t k) {
  if constexpr (std::is_same_v<T, bool>) {
    for (std::int64_t p = 0; p < k; ++p)
      if (a[p * a_step] && b[p * b_step]) return true;
    return false;
  } else {
    // Unsigned arithmetic of T's width (at least unsigned int's, so that products of narrow types do
    // not promote to signed int and overflow) gives T's result modulo 2^bits, without undefined
    // behaviour for signed types.
    using U = std::make_unsigned_t<T>;
    using Wide = std::conditional_t<(sizeof(U) < sizeof(unsigned)), unsigned, U>;
    Wide sum = 0;
    for (std::int64_t p = 0; p < k; ++p)
      sum += static_cast<Wide>(static_cast<U>(a[p * a_step])) * static_cast<Wide>(static_cast<U>(b[p * b_step]));
    return static_cast<T>(static_cast<U>(sum));
  }
}

// C = A . B for one product: element (i, j) of a matrix at i * row + j * col.
template <class T>
struct ExactProduct {
  const T* a;
  std::int64_t a_row, a_col;
  const T* b;
  std::int64_t b_row, b_col;
  T* c;
  std::int64_t ldc;
  std::int64_t k;

  // Element (i, j) of the product whose operands start at the given offsets.
  XP_HOST_DEVICE void operator()(std::int64_t a_offset, std::int64_t b_offset, std::int64_t c_offset, std::int64_t i,
                                 std::int64_t j) const {
    c[c_offset + i * ldc + j] = exact_dot(a + a_offset + i * a_row, a_col, b + b_offset + j * b_col, b_row, k);
  }
};

}  // namespace xp::kernels
