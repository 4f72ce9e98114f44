#pragma once
// NumPy's distributions as samplers of one element from its words (philox.hpp): each has result_type,
// `words` (what it takes from the generator's stream; more come from its own stream when it rejects)
// and operator()(SampleBits&). The same code runs on every device, in double through portable_math.hpp
// wherever a transcendental function enters, so a sample is the same bits on every device. Parameters
// derived from the call's (exp(-lambda), sqrt(n p q), ...) are computed once on the host when the
// sampler is made.
#ifndef __CUDACC_RTC__
#include <cstdint>
#endif

#include "xp/host_device.hpp"
#include "xp/kernels/philox.hpp"
#include "xp/kernels/portable_math.hpp"
#include "xp/kernels/ziggurat.hpp"

namespace xp::kernels {

// Words a sample of T in (0, 1) or [0, 1) takes: 24 bits fit one word, 53 need two.
template <class T>
inline constexpr int kWordsOf = sizeof(T) == 4 ? 1 : 2;

template <class T>
struct UniformSampler {
  using result_type = T;
  static constexpr int words = kWordsOf<T>;
  T low, scale;  // scale: high - low
  XP_HOST_DEVICE T operator()(SampleBits& bits) const { return low + scale * unit_interval<T>(bits); }
  XP_HOST_DEVICE bool try_first(const std::uint32_t* first_words, T& value) const {
    value = low + scale * unit_interval_of<T>(first_words);
    return true;
  }
};

template <class T>
struct NormalSampler {
  using result_type = T;
  static constexpr int words = kWordsOf<T>;
  const ZigguratTables* tables;
  T mean, sigma;
  XP_HOST_DEVICE T operator()(SampleBits& bits) const { return mean + sigma * ziggurat_normal<T>(bits, *tables); }
  XP_HOST_DEVICE bool try_first(const std::uint32_t* first_words, T& value) const {
    T z;
    const bool inside = ziggurat_first_try(first_words, *tables, z);
    value = mean + sigma * z;
    return inside;
  }
};

template <class T>
struct LognormalSampler {
  using result_type = T;
  static constexpr int words = kWordsOf<T>;
  const ZigguratTables* tables;
  double mean, sigma;
  XP_HOST_DEVICE T operator()(SampleBits& bits) const {
    return static_cast<T>(portable_exp(mean + sigma * ziggurat_normal<double>(bits, *tables)));
  }
};

// The continuous distributions that are a function of one uniform number (inversion).
enum class Inversion : std::uint8_t { exponential, laplace, logistic, gumbel, weibull };

template <class T>
struct InversionSampler {
  using result_type = T;
  static constexpr int words = kWordsOf<T>;
  Inversion kind;
  double loc, scale;  // weibull: scale = 1 / a
  XP_HOST_DEVICE T operator()(SampleBits& bits) const {
    const double u = open_unit_interval<T>(bits);
    switch (kind) {
      case Inversion::exponential: return static_cast<T>(-scale * portable_log(u));
      case Inversion::laplace:
        return static_cast<T>(u < 0.5 ? loc + scale * portable_log(u + u) : loc - scale * portable_log(2 - (u + u)));
      case Inversion::logistic: return static_cast<T>(loc + scale * portable_log(u / (1 - u)));
      case Inversion::gumbel: return static_cast<T>(loc - scale * portable_log(-portable_log(u)));
      case Inversion::weibull:
        return scale == 0 ? T(0) : static_cast<T>(portable_exp(portable_log(-portable_log(u)) * scale));
    }
    return T(0);
  }
};

// The 128-bit product a b: returns the high half, sets `low` to the low half.
XP_HOST_DEVICE inline std::uint64_t multiply_wide(std::uint64_t a, std::uint64_t b, std::uint64_t& low) {
  low = a * b;
#ifdef __CUDA_ARCH__
  return __umul64hi(a, b);
#else
  __extension__ typedef unsigned __int128 Wide;
  return static_cast<std::uint64_t>(static_cast<Wide>(a) * b >> 64);
#endif
}

// Integers low + [0, range) by Lemire's multiply-and-reject ("Fast random integer generation in an
// interval", 2019): W = 32 for ranges up to 2^32 (one word), else 64 (two; range 0 stands for 2^64).
template <class T, int W>
struct IntegerSampler {
  using result_type = T;
  static constexpr int words = W / 32;
  std::uint64_t low;  // two's complement of the lowest value: results wrap into T as NumPy's do
  std::uint64_t range;
  XP_HOST_DEVICE T operator()(SampleBits& bits) const { return static_cast<T>(low + offset(bits)); }
  // Lemire's first product, accepted when its low half is at least the range (the threshold is below it);
  // a range of 2^32 (every word a value) never rejects.
  XP_HOST_DEVICE bool try_first(const std::uint32_t* first_words, T& value) const {
    if constexpr (W == 32) {
      const std::uint64_t product = static_cast<std::uint64_t>(first_words[0]) * range;
      value = static_cast<T>(low + (product >> 32));
      return static_cast<std::uint32_t>(product) >= range || range >> 32 != 0;
    } else {
      std::uint64_t low_half;
      const std::uint64_t high_half = multiply_wide(joined(first_words), range, low_half);
      value = static_cast<T>(low + (range == 0 ? joined(first_words) : high_half));
      return range == 0 || low_half >= range;
    }
  }

 private:
  XP_HOST_DEVICE std::uint64_t offset(SampleBits& bits) const {
    if constexpr (W == 32) {
      std::uint64_t product = static_cast<std::uint64_t>(bits.next32()) * range;
      if (static_cast<std::uint32_t>(product) < range && range >> 32 == 0) {
        const std::uint32_t threshold = static_cast<std::uint32_t>(0 - range) % static_cast<std::uint32_t>(range);
        while (static_cast<std::uint32_t>(product) < threshold)
          product = static_cast<std::uint64_t>(bits.next32()) * range;
      }
      return product >> 32;
    } else {
      if (range == 0) return bits.next64();
      std::uint64_t low_half;
      std::uint64_t high_half = multiply_wide(bits.next64(), range, low_half);
      if (low_half < range) {
        const std::uint64_t threshold = (0 - range) % range;
        while (low_half < threshold) high_half = multiply_wide(bits.next64(), range, low_half);
      }
      return high_half;
    }
  }
};

// Integers low + [0, range) for ranges up to 2^16 from half a word each (8 to a block, the high half
// first): Lemire's test on the 16-bit product; a sample it rejects (below threshold = 2^16 mod range)
// continues with 32-bit words of its own stream. NumPy too draws 16 bits for its 16- and 8-bit integers.
template <class T>
struct HalfWordIntegerSampler {
  using result_type = T;
  static constexpr bool half_words = true;
  std::uint64_t low;
  std::uint32_t range, threshold;  // range: 1 to 2^16

  static HalfWordIntegerSampler of(std::uint64_t low, std::uint32_t range) {
    return {low, range, (0x10000 - range) % range};
  }
  XP_HOST_DEVICE bool try_half(std::uint32_t half, T& value) const {
    const std::uint32_t product = half * range;
    value = static_cast<T>(low + (product >> 16));
    return (product & 0xffff) >= threshold;
  }
  // After try_half rejected `half`.
  XP_HOST_DEVICE T retry(SampleBits& bits) const { return IntegerSampler<T, 32>{low, range}(bits); }
};

// True with probability threshold / 2^32.
struct BernoulliSampler {
  using result_type = bool;
  static constexpr int words = 1;
  std::uint64_t threshold;
  XP_HOST_DEVICE bool operator()(SampleBits& bits) const { return bits.next32() < threshold; }
  XP_HOST_DEVICE bool try_first(const std::uint32_t* first_words, bool& value) const {
    value = first_words[0] < threshold;
    return true;
  }
};

// The number of trials to the first success: ceil(log(u) / log(1 - p)), capped at int64's largest.
struct GeometricSampler {
  using result_type = std::int64_t;
  static constexpr int words = 2;
  double log_failure;  // log(1 - p); 0 when p = 1
  XP_HOST_DEVICE std::int64_t operator()(SampleBits& bits) const {
    const double u = open_unit_interval<double>(bits);
    if (log_failure == 0) return 1;
    const double trials = __builtin_ceil(portable_log(u) / log_failure);
    return trials >= 0x1p63 ? INT64_MAX : static_cast<std::int64_t>(trials);
  }
};

}  // namespace xp::kernels
