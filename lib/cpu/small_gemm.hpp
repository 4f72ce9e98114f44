#pragma once
// Float products too small for BLAS to pay: Debian's OpenBLAS (0.3.21) spends about 250 ns a call
// taking its buffers, under a lock that threads calling at once queue on, which is the whole work of
// an 8x8 product. Up to kSmallProduct multiply-adds, and when B's rows are contiguous, this loop
// (AVX2 and FMA where the CPU has them) runs instead.
#include <cstdint>

#include "core/matmul_plan.hpp"

namespace xp::detail {

inline constexpr std::int64_t kSmallProduct = 16 * 16 * 16;

// C (m x n, rows ldc apart) = A (m x k, element (i, p) at i * a.rows + p * a.cols) . B (k x n, row p
// at b + p * ldb, contiguous). T: float or double.
template <class T>
void small_gemm(std::int64_t m, std::int64_t n, std::int64_t k, const T* a, MatrixStrides a_strides, const T* b,
                std::int64_t ldb, T* c, std::int64_t ldc);

}  // namespace xp::detail
