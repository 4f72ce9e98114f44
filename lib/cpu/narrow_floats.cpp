#include "xp/kernels/cpu/narrow_floats.hpp"

#include <cstring>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
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
  static const bool has = [] {
    unsigned int a = 0, b = 0, c = 0, d = 0;  // CPUID leaf 1: ECX bit 29 is F16C (Clang 14 has no name for it)
    return __builtin_cpu_supports("avx") && __get_cpuid(1, &a, &b, &c, &d) != 0 && (c & (1u << 29)) != 0;
  }();
  return has;
}

// Eight at a time; a tail of fewer goes through an 8-element buffer (the scalar intrinsics are
// macros that Clang 14 expands to C99 compound literals).
[[gnu::target("avx,f16c")]] void widen_halves_f16c(const float16* in, float* out, std::int64_t n) noexcept {
  const auto* bits = reinterpret_cast<const unsigned short*>(in);
  std::int64_t i = 0;
  for (; i + 8 <= n; i += 8)
    _mm256_storeu_ps(out + i, _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(bits + i))));
  if (i == n) return;
  alignas(16) unsigned short tail[8] = {};
  alignas(32) float widened[8];
  std::memcpy(tail, bits + i, static_cast<std::size_t>(n - i) * sizeof(unsigned short));
  _mm256_store_ps(widened, _mm256_cvtph_ps(_mm_load_si128(reinterpret_cast<const __m128i*>(tail))));
  std::memcpy(out + i, widened, static_cast<std::size_t>(n - i) * sizeof(float));
}

[[gnu::target("avx,f16c")]] void narrow_to_halves_f16c(const float* in, float16* out, std::int64_t n) noexcept {
  auto* bits = reinterpret_cast<unsigned short*>(out);
  constexpr int kNearestEven = _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC;
  std::int64_t i = 0;
  for (; i + 8 <= n; i += 8)
    _mm_storeu_si128(reinterpret_cast<__m128i*>(bits + i), _mm256_cvtps_ph(_mm256_loadu_ps(in + i), kNearestEven));
  if (i == n) return;
  alignas(32) float tail[8] = {};
  alignas(16) unsigned short narrowed[8];
  std::memcpy(tail, in + i, static_cast<std::size_t>(n - i) * sizeof(float));
  _mm_store_si128(reinterpret_cast<__m128i*>(narrowed), _mm256_cvtps_ph(_mm256_load_ps(tail), kNearestEven));
  std::memcpy(bits + i, narrowed, static_cast<std::size_t>(n - i) * sizeof(unsigned short));
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
