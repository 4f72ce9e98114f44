#pragma once
// Philox4x32-10 (Salmon et al., "Parallel random numbers: as easy as 1, 2, 3", SC11): a
// counter-based generator. The random bits of element i are a pure function of (key, counter i), so
// every device and any number of threads produce the same bits for the same seed: the same uniform
// numbers, and normal ones within the devices' sqrt, log and cos (a few ulps).
#ifndef __CUDACC_RTC__
#include <cmath>
#include <cstdint>
#endif

#include "xp/host_device.hpp"

namespace xp::kernels {

struct Philox4x32 {
  std::uint32_t word[4];
};

XP_HOST_DEVICE inline Philox4x32 philox4x32_10(Philox4x32 counter, std::uint32_t key0, std::uint32_t key1) {
  constexpr std::uint32_t kMultiplier0 = 0xD2511F53u, kMultiplier1 = 0xCD9E8D57u;
  constexpr std::uint32_t kWeyl0 = 0x9E3779B9u, kWeyl1 = 0xBB67AE85u;
  for (int round = 0; round < 10; ++round) {
    const std::uint64_t product0 = static_cast<std::uint64_t>(kMultiplier0) * counter.word[0];
    const std::uint64_t product1 = static_cast<std::uint64_t>(kMultiplier1) * counter.word[2];
    counter = {
        {static_cast<std::uint32_t>(product1 >> 32) ^ counter.word[1] ^ key0, static_cast<std::uint32_t>(product1),
         static_cast<std::uint32_t>(product0 >> 32) ^ counter.word[3] ^ key1, static_cast<std::uint32_t>(product0)}};
    key0 += kWeyl0;
    key1 += kWeyl1;
  }
  return counter;
}

// The random bits for element `position` of a stream that starts at counter `offset`.
struct PhiloxStream {
  std::uint64_t seed;
  std::uint64_t offset;

  XP_HOST_DEVICE Philox4x32 bits(long long position) const {
    const std::uint64_t counter = offset + static_cast<std::uint64_t>(position);
    return philox4x32_10({{static_cast<std::uint32_t>(counter), static_cast<std::uint32_t>(counter >> 32), 0u, 0u}},
                         static_cast<std::uint32_t>(seed), static_cast<std::uint32_t>(seed >> 32));
  }
};

// A number in [0, 1) from 24 (float) or 53 (double) random bits.
template <class T>
XP_HOST_DEVICE inline T unit_interval(std::uint32_t high, std::uint32_t low) {
  if constexpr (sizeof(T) == 4) {
    return static_cast<T>(high >> 8) * T(1.0 / 16777216.0);
  } else {
    const std::uint64_t bits = (static_cast<std::uint64_t>(high) << 32 | low) >> 11;
    return static_cast<T>(bits) * T(1.0 / 9007199254740992.0);
  }
}

// a * b rounded, never fused with a following addition: nvcc contracts a * b + c into one FMA (one
// rounding) where the host compiler rounds twice, and uniform numbers must agree bit for bit on every
// device.
template <class T>
XP_HOST_DEVICE inline T product_rounded(T a, T b) {
#ifdef __CUDA_ARCH__
  if constexpr (sizeof(T) == 4) {
    return __fmul_rn(a, b);
  } else {
    return __dmul_rn(a, b);
  }
#else
  return a * b;
#endif
}

template <class T>
struct UniformDistribution {
  using result_type = T;
  PhiloxStream stream;
  T low, scale;  // scale: high - low
  XP_HOST_DEVICE T operator()(long long position) const {
    const Philox4x32 r = stream.bits(position);
    return low + product_rounded(scale, unit_interval<T>(r.word[0], r.word[1]));
  }
};

// Box-Muller from two uniform numbers of the same counter (the first kept away from 0).
template <class T>
struct NormalDistribution {
  using result_type = T;
  PhiloxStream stream;
  T mean, std;
  XP_HOST_DEVICE T operator()(long long position) const {
    const Philox4x32 r = stream.bits(position);
    const T u1 = T(1) - unit_interval<T>(r.word[0], r.word[1]);
    const T u2 = unit_interval<T>(r.word[2], r.word[3]);
    constexpr T two_pi = T(6.283185307179586476925286766559);
    return mean + std * std::sqrt(T(-2) * std::log(u1)) * std::cos(two_pi * u2);
  }
};

}  // namespace xp::kernels
