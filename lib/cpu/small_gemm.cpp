#include "cpu/small_gemm.hpp"

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace xp::detail {

namespace {

// Row i of C accumulates a(i, p) times row p of B, p = 0..k-1: the loop over a row vectorises. The
// portable loop, and the columns past the last whole vector of the AVX2 one.
template <class T>
void rows_times_rows(std::int64_t m, std::int64_t n, std::int64_t k, const T* a, MatrixStrides as,
                     const T* __restrict b, std::int64_t ldb, T* __restrict c, std::int64_t ldc) {
  for (std::int64_t i = 0; i < m; ++i) {
    T* __restrict row = c + i * ldc;
    for (std::int64_t j = 0; j < n; ++j) row[j] = 0;
    for (std::int64_t p = 0; p < k; ++p) {
      const T x = a[i * as.rows + p * as.cols];
      const T* __restrict b_row = b + p * ldb;
      for (std::int64_t j = 0; j < n; ++j) row[j] += x * b_row[j];
    }
  }
}

#if defined(__x86_64__)
// AVX2 and FMA for these functions only: the library runs on any x86-64 and picks them at run time.
#if defined(__clang__)
#pragma clang attribute push(__attribute__((target("avx2,fma"))), apply_to = function)
#else
#pragma GCC push_options
#pragma GCC target("avx2,fma")
#endif

template <class T>
struct Avx2;
template <>
struct Avx2<float> {
  using Vector = __m256;
  static constexpr int kLanes = 8;
  static Vector zero() { return _mm256_setzero_ps(); }
  static Vector load(const float* p) { return _mm256_loadu_ps(p); }
  static void store(float* p, Vector v) { _mm256_storeu_ps(p, v); }
  static Vector broadcast(float x) { return _mm256_set1_ps(x); }
  static Vector fma(Vector x, Vector y, Vector z) { return _mm256_fmadd_ps(x, y, z); }
};
template <>
struct Avx2<double> {
  using Vector = __m256d;
  static constexpr int kLanes = 4;
  static Vector zero() { return _mm256_setzero_pd(); }
  static Vector load(const double* p) { return _mm256_loadu_pd(p); }
  static void store(double* p, Vector v) { _mm256_storeu_pd(p, v); }
  static Vector broadcast(double x) { return _mm256_set1_pd(x); }
  static Vector fma(Vector x, Vector y, Vector z) { return _mm256_fmadd_pd(x, y, z); }
};

// A tile of C: kRows rows by kVectors vectors of columns, kept in registers over the whole of k
// (at most 8 accumulators, 2 vectors of B and a broadcast: 11 of the 16 registers).
template <class T, int kRows, int kVectors>
void tile(std::int64_t k, const T* a, MatrixStrides as, const T* b, std::int64_t ldb, T* c, std::int64_t ldc) {
  using V = Avx2<T>;
  typename V::Vector acc[kRows][kVectors];
  for (int r = 0; r < kRows; ++r)
    for (int v = 0; v < kVectors; ++v) acc[r][v] = V::zero();
  for (std::int64_t p = 0; p < k; ++p) {
    typename V::Vector row[kVectors];
    for (int v = 0; v < kVectors; ++v) row[v] = V::load(b + p * ldb + v * V::kLanes);
    for (int r = 0; r < kRows; ++r) {
      const typename V::Vector x = V::broadcast(a[r * as.rows + p * as.cols]);
      for (int v = 0; v < kVectors; ++v) acc[r][v] = V::fma(x, row[v], acc[r][v]);
    }
  }
  for (int r = 0; r < kRows; ++r)
    for (int v = 0; v < kVectors; ++v) V::store(c + r * ldc + v * V::kLanes, acc[r][v]);
}

// Rows [0, m) of the columns [j, j + kVectors * lanes): tiles of 4 rows, then the rows left.
template <class T, int kVectors>
void column_block(std::int64_t m, std::int64_t k, const T* a, MatrixStrides as, const T* b, std::int64_t ldb, T* c,
                  std::int64_t ldc) {
  std::int64_t i = 0;
  for (; i + 4 <= m; i += 4) tile<T, 4, kVectors>(k, a + i * as.rows, as, b, ldb, c + i * ldc, ldc);
  switch (m - i) {
    case 3: tile<T, 3, kVectors>(k, a + i * as.rows, as, b, ldb, c + i * ldc, ldc); break;
    case 2: tile<T, 2, kVectors>(k, a + i * as.rows, as, b, ldb, c + i * ldc, ldc); break;
    case 1: tile<T, 1, kVectors>(k, a + i * as.rows, as, b, ldb, c + i * ldc, ldc); break;
    default: break;
  }
}

template <class T>
void tiled(std::int64_t m, std::int64_t n, std::int64_t k, const T* a, MatrixStrides as, const T* b, std::int64_t ldb,
           T* c, std::int64_t ldc) {
  constexpr int kLanes = Avx2<T>::kLanes;
  std::int64_t j = 0;
  for (; j + 2 * kLanes <= n; j += 2 * kLanes) column_block<T, 2>(m, k, a, as, b + j, ldb, c + j, ldc);
  for (; j + kLanes <= n; j += kLanes) column_block<T, 1>(m, k, a, as, b + j, ldb, c + j, ldc);
  if (j < n) rows_times_rows(m, n - j, k, a, as, b + j, ldb, c + j, ldc);
}

#if defined(__clang__)
#pragma clang attribute pop
#else
#pragma GCC pop_options
#endif

const bool kHasAvx2Fma = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
#else
constexpr bool kHasAvx2Fma = false;
#endif

}  // namespace

template <class T>
void small_gemm(std::int64_t m, std::int64_t n, std::int64_t k, const T* a, MatrixStrides a_strides, const T* b,
                std::int64_t ldb, T* c, std::int64_t ldc) {
#if defined(__x86_64__)
  if (kHasAvx2Fma) {
    tiled(m, n, k, a, a_strides, b, ldb, c, ldc);
    return;
  }
#endif
  rows_times_rows(m, n, k, a, a_strides, b, ldb, c, ldc);
}

template void small_gemm<float>(std::int64_t, std::int64_t, std::int64_t, const float*, MatrixStrides, const float*,
                                std::int64_t, float*, std::int64_t);
template void small_gemm<double>(std::int64_t, std::int64_t, std::int64_t, const double*, MatrixStrides, const double*,
                                 std::int64_t, double*, std::int64_t);

}  // namespace xp::detail
