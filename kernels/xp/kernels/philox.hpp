#pragma once
// Philox4x32-10 (Salmon et al., "Parallel random numbers: as easy as 1, 2, 3", SC11): a
// counter-based generator. A block of four 32-bit words is a pure function of (key, 128-bit counter),
// so every device and any number of threads produce the same bits for the same key.
//
// The words of a draw: the generator's stream is blocks at counters (b, 0, 0, 0), b counting up from
// the generator's position. A sample that takes w words (1, 2 or 4) reads them from the stream, 4 / w
// samples to a block (small integers take half a word: 8 to a block); a sample that needs more (a rejection sampler's
// retries) continues in a stream of its own, blocks at counters (id, attempt) with attempt >= 1 in the upper half,
// where id is the number of its first word in the generator's stream: unique for the generator's life, so no two
// samples of any draws share words.
#ifndef __CUDACC_RTC__
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

struct PhiloxKey {
  std::uint32_t low, high;

  XP_HOST_DEVICE Philox4x32 block(std::uint64_t counter_low, std::uint64_t counter_high = 0) const {
    return philox4x32_10({{static_cast<std::uint32_t>(counter_low), static_cast<std::uint32_t>(counter_low >> 32),
                           static_cast<std::uint32_t>(counter_high), static_cast<std::uint32_t>(counter_high >> 32)}},
                         low, high);
  }
};

// One sample's words: its share of a stream block first, then blocks of its own stream.
class SampleBits {
 public:
  // first_attempt: where the own stream's attempts start (two samples sharing a word start apart).
  XP_HOST_DEVICE SampleBits(PhiloxKey key, std::uint64_t id, const std::uint32_t* words, int count,
                            std::uint32_t first_attempt = 0)
      : key_(key), id_(id), available_(count), attempts_(first_attempt) {
    for (int k = 0; k < count; ++k) words_[k] = words[k];
  }

  XP_HOST_DEVICE std::uint32_t next32() {
    if (used_ == available_) [[unlikely]]
      refill();
    return words_[used_++];
  }

  XP_HOST_DEVICE std::uint64_t next64() {
    const std::uint64_t high = next32();
    return high << 32 | next32();
  }

 private:
  // Out of line: the common sample never gets here, and ten inlined rounds per call site would crowd its loop.
  XP_NOINLINE XP_HOST_DEVICE void refill() {
    const Philox4x32 block = key_.block(id_, ++attempts_);
    for (int k = 0; k < 4; ++k) words_[k] = block.word[k];
    used_ = 0;
    available_ = 4;
  }

  PhiloxKey key_;
  std::uint64_t id_;
  std::uint32_t words_[4] = {};
  int used_ = 0, available_;
  std::uint32_t attempts_;
};

// The 64 bits of two words, the first one high (as SampleBits::next64 reads them).
XP_HOST_DEVICE inline std::uint64_t joined(const std::uint32_t* words) {
  return static_cast<std::uint64_t>(words[0]) << 32 | words[1];
}

// A number in [0, 1) from 24 random bits (float) or 53 (double): the top bits of one or two words.
template <class T>
XP_HOST_DEVICE inline T unit_interval_of(const std::uint32_t* words) {
  if constexpr (sizeof(T) == 4) {
    return static_cast<T>(words[0] >> 8) * T(0x1p-24);
  } else {
    return static_cast<T>(joined(words) >> 11) * T(0x1p-53);
  }
}

// The words a number of type T takes from `bits`: one for 4-byte types, two for 8-byte ones.
template <class T>
struct WordsOf {
  std::uint32_t word[2];
  XP_HOST_DEVICE explicit WordsOf(SampleBits& bits) : word{bits.next32(), sizeof(T) == 8 ? bits.next32() : 0u} {}
};

template <class T>
XP_HOST_DEVICE inline T unit_interval(SampleBits& bits) {
  return unit_interval_of<T>(WordsOf<T>(bits).word);
}

// A double in (0, 1), never 0 or 1 (an argument for log), from one word (samples of float32) or two:
// the midpoints of 2^32 or 2^53 equal intervals.
template <class T>
XP_HOST_DEVICE inline double open_unit_interval_of(const std::uint32_t* words) {
  if constexpr (sizeof(T) == 4) {
    return (static_cast<double>(words[0]) + 0.5) * 0x1p-32;
  } else {
    return (static_cast<double>(joined(words) >> 11) + 0.5) * 0x1p-53;
  }
}

template <class T>
XP_HOST_DEVICE inline double open_unit_interval(SampleBits& bits) {
  return open_unit_interval_of<T>(WordsOf<T>(bits).word);
}

}  // namespace xp::kernels
