#pragma once
// Float products too small for OpenBLAS to pay. Debian's OpenBLAS (0.3.21) spends about 250 ns a call
// taking its buffers, under a lock that threads calling at once queue on (the whole work of an 8x8
// product), and packs both operands for every call; measured on one core of the 2-core development VM,
// it ran 64^3 products at 19 GFLOP/s and 128^3 at 16-18, where a tile of C kept in AVX2 registers over
// the rows of B runs at 30-44 (and 16x16 at 30 against 14). Up to kSmallProduct multiply-adds, and
// when B's rows are contiguous, this loop runs instead; larger products go to OpenBLAS, whose cache
// blocking and threads win from 256^3 up.
#include <cstdint>

#include "core/matmul_plan.hpp"

namespace xp::detail {

inline constexpr std::int64_t kSmallProduct = std::int64_t{128} * 128 * 128;

// C (m x n, rows ldc apart) = A (m x k, element (i, p) at i * a.rows + p * a.cols) . B (k x n, row p
// at b + p * ldb, contiguous). T: float or double.
template <class T>
void small_gemm(std::int64_t m, std::int64_t n, std::int64_t k, const T* a, MatrixStrides a_strides, const T* b,
                std::int64_t ldb, T* c, std::int64_t ldc);

}  // namespace xp::detail
