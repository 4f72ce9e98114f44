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

// A standard normal number: float (one word a try) or double (two).
template <class T>
XP_HOST_DEVICE inline T ziggurat_normal(SampleBits& bits, const ZigguratTables& tables) {
  for (;;) {
    int layer;
    bool negative;
    double x;
    if constexpr (sizeof(T) == 4) {
      const std::uint32_t word = bits.next32();
      layer = static_cast<int>(word & 0xff);
      negative = (word >> 8) & 1;
      const std::uint32_t position = word >> 9;
      const float fast = static_cast<float>(position) * tables.width32[layer];
      if (position < tables.below32[layer]) return negative ? -fast : fast;
      x = fast;
    } else {
      const std::uint64_t word = bits.next64();
      layer = static_cast<int>(word & 0xff);
      negative = (word >> 8) & 1;
      const std::uint64_t position = word >> 12;
      const double fast = static_cast<double>(position) * tables.width64[layer];
      if (position < tables.below64[layer]) return negative ? -fast : fast;
      x = fast;
    }
    if (ziggurat_edge(bits, tables, layer, x)) return static_cast<T>(negative ? -x : x);
  }
}

}  // namespace xp::kernels
