// The AVX2 side of vector_math: this file alone is compiled with -mavx2 -mfma (a function attribute
// would not do: Clang passes 256-bit vectors to libmvec in memory at -O0 then, as the file's own ABI).
// It defines no function outside its anonymous namespace, so no inline function compiled for AVX2 can
// stand in for another file's copy; vector_math.cpp reads its table only on CPUs with AVX2.
// libmvec's functions by their vector ABI names: glibc's math-vector.h declares them for -ffast-math
// builds only, and for GCC's vectoriser, which would leave a loop's last elements to the scalar function.
#include "cpu/vector_math.hpp"

#include <immintrin.h>

#include <cstddef>
#include <cstring>
#include <iterator>

// clang-format off
#define XP_UNARY_MATH(X)                                     \
  X(exp) X(exp2) X(expm1) X(log) X(log2) X(log10) X(log1p) \
  X(sin) X(cos) X(tan) X(asin) X(acos) X(atan)              \
  X(sinh) X(cosh) X(tanh) X(asinh) X(acosh) X(atanh) X(cbrt)
// clang-format on
#define XP_BINARY_MATH(X) X(atan2) X(hypot)
#define XP_ROUNDING(X)            \
  X(floor, _MM_FROUND_TO_NEG_INF) \
  X(ceil, _MM_FROUND_TO_POS_INF) X(trunc, _MM_FROUND_TO_ZERO) X(rint, _MM_FROUND_CUR_DIRECTION)

extern "C" {
#define XP_DECLARE_UNARY(name)       \
  __m256 _ZGVdN8v_##name##f(__m256); \
  __m256d _ZGVdN4v_##name(__m256d);
#define XP_DECLARE_BINARY(name)               \
  __m256 _ZGVdN8vv_##name##f(__m256, __m256); \
  __m256d _ZGVdN4vv_##name(__m256d, __m256d);
XP_UNARY_MATH(XP_DECLARE_UNARY)
XP_BINARY_MATH(XP_DECLARE_BINARY)
#undef XP_DECLARE_UNARY
#undef XP_DECLARE_BINARY
}

namespace xp::detail {

namespace {

// One vector of a function: out[0, lanes) = f(x[0, lanes)) (and y's, for the binary ones).
#define XP_UNARY_VECTORS(name)                                       \
  struct name##_vectors {                                            \
    static void apply(const float* x, const float*, float* out) {    \
      _mm256_storeu_ps(out, _ZGVdN8v_##name##f(_mm256_loadu_ps(x))); \
    }                                                                \
    static void apply(const double* x, const double*, double* out) { \
      _mm256_storeu_pd(out, _ZGVdN4v_##name(_mm256_loadu_pd(x)));    \
    }                                                                \
  };
#define XP_BINARY_VECTORS(name)                                                           \
  struct name##_vectors {                                                                 \
    static void apply(const float* x, const float* y, float* out) {                       \
      _mm256_storeu_ps(out, _ZGVdN8vv_##name##f(_mm256_loadu_ps(x), _mm256_loadu_ps(y))); \
    }                                                                                     \
    static void apply(const double* x, const double* y, double* out) {                    \
      _mm256_storeu_pd(out, _ZGVdN4vv_##name(_mm256_loadu_pd(x), _mm256_loadu_pd(y)));    \
    }                                                                                     \
  };
#define XP_ROUNDING_VECTORS(name, mode)                                                     \
  struct name##_vectors {                                                                   \
    static void apply(const float* x, const float*, float* out) {                           \
      _mm256_storeu_ps(out, _mm256_round_ps(_mm256_loadu_ps(x), mode | _MM_FROUND_NO_EXC)); \
    }                                                                                       \
    static void apply(const double* x, const double*, double* out) {                        \
      _mm256_storeu_pd(out, _mm256_round_pd(_mm256_loadu_pd(x), mode | _MM_FROUND_NO_EXC)); \
    }                                                                                       \
  };
XP_UNARY_MATH(XP_UNARY_VECTORS)
XP_BINARY_MATH(XP_BINARY_VECTORS)
XP_ROUNDING(XP_ROUNDING_VECTORS)
#undef XP_UNARY_VECTORS
#undef XP_BINARY_VECTORS
#undef XP_ROUNDING_VECTORS

// out = f over whole vectors, then over the last elements in a vector padded with the last element (a
// value in the function's domain: no lane takes libmvec's path for special values needlessly).
template <class Vectors, class T>
void run_vectors(const T* x, const T* y, T* out, std::int64_t n) {
  constexpr std::int64_t lanes = 32 / sizeof(T);
  if (y == nullptr) y = x;
  std::int64_t i = 0;
  for (; i + lanes <= n; i += lanes) Vectors::apply(x + i, y + i, out + i);
  if (i == n) return;
  T tail_x[lanes], tail_y[lanes], tail_out[lanes];
  for (std::int64_t j = 0; j < lanes; ++j) {
    const std::int64_t at = i + j < n ? i + j : n - 1;
    tail_x[j] = x[at];
    tail_y[j] = y[at];
  }
  Vectors::apply(tail_x, tail_y, tail_out);
  std::memcpy(out + i, tail_out, static_cast<std::size_t>(n - i) * sizeof(T));
}

}  // namespace

#define XP_RUNS(name) VectorRuns{&run_vectors<name##_vectors, float>, &run_vectors<name##_vectors, double>},
#define XP_ROUNDING_RUNS(name, mode) XP_RUNS(name)
const VectorRuns kVectorRuns[] = {XP_UNARY_MATH(XP_RUNS) XP_BINARY_MATH(XP_RUNS) XP_ROUNDING(XP_ROUNDING_RUNS)};
#undef XP_RUNS
#undef XP_ROUNDING_RUNS
static_assert(std::size(kVectorRuns) == kMathFunctions);

}  // namespace xp::detail
