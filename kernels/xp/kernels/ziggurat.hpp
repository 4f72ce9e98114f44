#pragma once
// Normal numbers by Marsaglia and Tsang's ziggurat ("The ziggurat method for generating random
// variables", 2000) with 256 layers of equal area under exp(-x^2/2): a sample picks a layer and a
// position with one word (float32) or two (float64), and is accepted at once unless it falls beyond
// the layer below (about 1 in 100): then the layer's wedge is tested against the curve, or the tail
// beyond r sampled. The tables are computed once on the host (lib/core/ziggurat_tables.cpp) and read
// by every device, so the layers are the same bits everywhere.
#ifndef __CUDACC_RTC__
#include <cstdint>
#endif

#include "xp/host_device.hpp"
#include "xp/kernels/philox.hpp"
#include "xp/kernels/portable_math.hpp"

namespace xp::kernels {

inline constexpr int kZigguratLayers = 256;
inline constexpr double kZigguratTail = 3.6541528853610088;  // r: where the base layer's tail starts
inline constexpr double kZigguratArea = 0.00492867323399;  // v: each layer's area

struct ZigguratTables {
  // Layer i spans [0, edge[i]) across and [density[i], density[i + 1]] up; edge[0] = v / f(r) is the
  // base layer's width with its tail, edge[1] = r, edge[256] = 0; density = exp(-edge^2 / 2).
  double edge[kZigguratLayers + 1];
  double density[kZigguratLayers + 1];
  // A position m (23 or 52 bits) in layer i lies at m * width[i]; below layer i + 1's edge when m < below[i].
  std::uint32_t below32[kZigguratLayers];
  float width32[kZigguratLayers];
  std::uint64_t below64[kZigguratLayers];
  double width64[kZigguratLayers];
};

// Whether a position x of layer `layer` beyond the layer above's edge is under the curve; the base
// layer's instead replaces x with a sample of the tail (Marsaglia's exponential pair).
XP_HOST_DEVICE inline bool ziggurat_edge(SampleBits& bits, const ZigguratTables& tables, int layer, double& x) {
  if (layer == 0) {
    for (;;) {
      const double a = -portable_log(open_unit_interval<double>(bits)) / kZigguratTail;
      const double b = -portable_log(open_unit_interval<double>(bits));
      if (b + b > a * a) {
        x = kZigguratTail + a;
        return true;
      }
    }
  }
  const double low = tables.density[layer], high = tables.density[layer + 1];
  return low + unit_interval<double>(bits) * (high - low) < portable_exp(-0.5 * x * x);
}

// x with its sign flipped when `negative`: by the sign bit, since a branch on a random bit is
// mispredicted half the time.
XP_HOST_DEVICE inline float signed_by(float x, std::uint32_t negative) {
  return __builtin_bit_cast(float, __builtin_bit_cast(std::uint32_t, x) ^ (negative << 31));
}
XP_HOST_DEVICE inline double signed_by(double x, std::uint64_t negative) {
  return __builtin_bit_cast(double, __builtin_bit_cast(std::uint64_t, x) ^ (negative << 63));
}

// A try of the ziggurat from its word(s) (float: one, double: two): the sample when it falls inside
// the layer below's edge (true), else false (the edge or tail must decide).
template <class T>
XP_HOST_DEVICE inline bool ziggurat_first_try(const std::uint32_t* words, const ZigguratTables& tables, T& value) {
  if constexpr (sizeof(T) == 4) {
    const std::uint32_t word = words[0], layer = word & 0xff, position = word >> 9;
    value = signed_by(static_cast<float>(position) * tables.width32[layer], (word >> 8) & 1);
    return position < tables.below32[layer];
  } else {
    const std::uint64_t word = joined(words), layer = word & 0xff, position = word >> 12;
    value = signed_by(static_cast<double>(position) * tables.width64[layer], (word >> 8) & 1);
    return position < tables.below64[layer];
  }
}

// A standard normal number: float (one word a try) or double (two).
template <class T>
XP_HOST_DEVICE inline T ziggurat_normal(SampleBits& bits, const ZigguratTables& tables) {
  for (;;) {
    std::uint32_t words[2];
    words[0] = bits.next32();
    if constexpr (sizeof(T) == 8) words[1] = bits.next32();
    T value;
    if (ziggurat_first_try(words, tables, value)) [[likely]]
      return value;
    const auto negative = static_cast<std::uint64_t>((words[sizeof(T) == 4 ? 0 : 1] >> 8) & 1);
    double x = __builtin_fabs(static_cast<double>(value));
    if (ziggurat_edge(bits, tables, static_cast<int>(words[sizeof(T) == 4 ? 0 : 1] & 0xff), x))
      return static_cast<T>(signed_by(x, negative));
  }
}

}  // namespace xp::kernels
