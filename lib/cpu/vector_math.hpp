#pragma once
// NumPy's functions of real float and double arrays that CPUs with AVX2 compute much faster than the x86-64
// baseline the library is built for allows:
// - the transcendental ones, through glibc's vector math library (libmvec, which NumPy's SVML loops
//   resemble): within 4 ulp of the exact result (glibc's scalar functions: 1 to 2), 3 to 17 times as fast
//   as those on one core (sinh of 2^24 floats 28 against NumPy's 474 ms). Special values (NaN, infinities, out of
//   the domain or of range) go through the scalar functions inside libmvec, so they are glibc's;
// - floor, ceil, trunc and rint, by AVX's rounding instruction: exact, the same bits as the baseline's
//   loops (kernels/xp/kernels/rounding.hpp), which hold a copy's speed only with a few ALU steps to spare.
// Other CPUs keep the scalar functions and the baseline's loops. Every lane is computed alike: an
// element's result does not depend on its position, the array's length or its strides.
#include <cstdint>

namespace xp::detail {

// In the order of kVectorRuns.
enum class MathFunction : unsigned char {
  exp,
  exp2,
  expm1,
  log,
  log2,
  log10,
  log1p,
  sin,
  cos,
  tan,
  asin,
  acos,
  atan,
  sinh,
  cosh,
  tanh,
  asinh,
  acosh,
  atanh,
  cbrt,
  atan2,
  hypot,
  floor,
  ceil,
  trunc,
  rint
};

inline constexpr int kMathFunctions = static_cast<int>(MathFunction::rint) + 1;

// The functions over n elements (vector_math_avx2.cpp, compiled for AVX2), by MathFunction.
template <class T>
using VectorRun = void (*)(const T* x, const T* y, T* out, std::int64_t n);
struct VectorRuns {
  VectorRun<float> floats;
  VectorRun<double> doubles;
};
extern const VectorRuns kVectorRuns[kMathFunctions];

// Whether this CPU has AVX2 and FMA (libmvec's AVX2 functions need both); vector_math may be called only
// where it has.
bool has_vector_math() noexcept;

// out[i] = f(x[i]), or f(x[i], y[i]) for atan2 and hypot (the others ignore y). out may be x or y.
void vector_math(MathFunction f, const float* x, const float* y, float* out, std::int64_t n);
void vector_math(MathFunction f, const double* x, const double* y, double* out, std::int64_t n);

}  // namespace xp::detail
