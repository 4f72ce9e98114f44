#include "cpu/small_gemm.hpp"

#include <cmath>

namespace xp::detail {

namespace {

// Row i of C accumulates a(i, p) times row p of B, p = 0..k-1: the loop over a row vectorises.
template <class T, bool kFused>
[[gnu::always_inline]] inline void rows_times_rows(std::int64_t m, std::int64_t n, std::int64_t k, const T* a,
                                                   MatrixStrides as, const T* __restrict b, std::int64_t ldb,
                                                   T* __restrict c, std::int64_t ldc) {
  for (std::int64_t i = 0; i < m; ++i) {
    T* __restrict row = c + i * ldc;
    for (std::int64_t j = 0; j < n; ++j) row[j] = 0;
    for (std::int64_t p = 0; p < k; ++p) {
      const T x = a[i * as.rows + p * as.cols];
      const T* __restrict b_row = b + p * ldb;
      for (std::int64_t j = 0; j < n; ++j) {
        if constexpr (kFused) row[j] = std::fma(x, b_row[j], row[j]);
        else row[j] += x * b_row[j];
      }
    }
  }
}

template <class T>
[[gnu::target("avx2,fma")]] void rows_times_rows_avx2(std::int64_t m, std::int64_t n, std::int64_t k, const T* a,
                                                      MatrixStrides as, const T* b, std::int64_t ldb, T* c,
                                                      std::int64_t ldc) {
  rows_times_rows<T, true>(m, n, k, a, as, b, ldb, c, ldc);
}

template <class T>
void rows_times_rows_baseline(std::int64_t m, std::int64_t n, std::int64_t k, const T* a, MatrixStrides as,
                              const T* b, std::int64_t ldb, T* c, std::int64_t ldc) {
  rows_times_rows<T, false>(m, n, k, a, as, b, ldb, c, ldc);
}

const bool kHasAvx2Fma = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");

}  // namespace

template <class T>
void small_gemm(std::int64_t m, std::int64_t n, std::int64_t k, const T* a, MatrixStrides a_strides, const T* b,
                std::int64_t ldb, T* c, std::int64_t ldc) {
  if (kHasAvx2Fma) rows_times_rows_avx2(m, n, k, a, a_strides, b, ldb, c, ldc);
  else rows_times_rows_baseline(m, n, k, a, a_strides, b, ldb, c, ldc);
}

template void small_gemm<float>(std::int64_t, std::int64_t, std::int64_t, const float*, MatrixStrides, const float*,
                                std::int64_t, float*, std::int64_t);
template void small_gemm<double>(std::int64_t, std::int64_t, std::int64_t, const double*, MatrixStrides,
                                 const double*, std::int64_t, double*, std::int64_t);

}  // namespace xp::detail
