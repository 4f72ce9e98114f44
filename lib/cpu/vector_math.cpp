#include "cpu/vector_math.hpp"

#include <cstddef>

namespace xp::detail {

bool has_vector_math() noexcept {
  // libmvec's AVX2 functions need FMA too (glibc picks them by the same test).
  static const bool avx2 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  return avx2;
}

void vector_math(MathFunction f, const float* x, const float* y, float* out, std::int64_t n) {
  kVectorRuns[static_cast<std::size_t>(f)].floats(x, y, out, n);
}

void vector_math(MathFunction f, const double* x, const double* y, double* out, std::int64_t n) {
  kVectorRuns[static_cast<std::size_t>(f)].doubles(x, y, out, n);
}

}  // namespace xp::detail
