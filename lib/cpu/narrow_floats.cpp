#include "xp/kernels/cpu/narrow_floats.hpp"

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define XP_HAS_F16C_PATH 1
#endif

namespace xp::detail {

namespace {

#ifdef XP_HAS_F16C_PATH
// The library is built for the baseline x86-64; these two are compiled for CPUs with F16C (and
// AVX, its 256-bit form) and called only where the CPU reports both. F16C rounds as
// element_bits::half_of_float does (to nearest even, overflow to infinity, NaNs quieted).
bool cpu_has_f16c() noexcept {
  static const bool has = __builtin_cpu_supports("avx") && __builtin_cpu_supports("f16c");
  return has;
}

[[gnu::target("avx,f16c")]] void widen_halves_f16c(const float16* in, float* out, std::int64_t n) noexcept {
  const auto* bits = reinterpret_cast<const unsigned short*>(in);
  std::int64_t i = 0;
  for (; i + 8 <= n; i += 8)
    _mm256_storeu_ps(out + i, _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(bits + i))));
  for (; i < n; ++i) out[i] = _cvtsh_ss(bits[i]);
}

[[gnu::target("avx,f16c")]] void narrow_to_halves_f16c(const float* in, float16* out, std::int64_t n) noexcept {
  auto* bits = reinterpret_cast<unsigned short*>(out);
  constexpr int kNearestEven = _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC;
  std::int64_t i = 0;
  for (; i + 8 <= n; i += 8)
    _mm_storeu_si128(reinterpret_cast<__m128i*>(bits + i), _mm256_cvtps_ph(_mm256_loadu_ps(in + i), kNearestEven));
  for (; i < n; ++i) bits[i] = _cvtss_sh(in[i], kNearestEven);
}
#endif

}  // namespace

void widen_floats(const float16* in, float* out, std::int64_t n) noexcept {
#ifdef XP_HAS_F16C_PATH
  if (cpu_has_f16c()) return widen_halves_f16c(in, out, n);
#endif
  for (std::int64_t i = 0; i < n; ++i) out[i] = static_cast<float>(in[i]);
}

void narrow_floats(const float* in, float16* out, std::int64_t n) noexcept {
#ifdef XP_HAS_F16C_PATH
  if (cpu_has_f16c()) return narrow_to_halves_f16c(in, out, n);
#endif
  for (std::int64_t i = 0; i < n; ++i) out[i] = float16(in[i]);
}

// bfloat16 is float's top half: both directions are integer operations that the compiler vectorises.
void widen_floats(const bfloat16* in, float* out, std::int64_t n) noexcept {
  for (std::int64_t i = 0; i < n; ++i) out[i] = static_cast<float>(in[i]);
}

void narrow_floats(const float* in, bfloat16* out, std::int64_t n) noexcept {
  for (std::int64_t i = 0; i < n; ++i) out[i] = bfloat16(in[i]);
}

}  // namespace xp::detail
