#include "core/ziggurat_tables.hpp"

#include <cmath>

namespace xp::detail {

namespace {

using kernels::kZigguratArea;
using kernels::kZigguratLayers;
using kernels::kZigguratTail;

double density_at(double x) { return std::exp(-0.5 * x * x); }

kernels::ZigguratTables make_ziggurat_tables() {
  kernels::ZigguratTables t{};
  t.edge[0] = kZigguratArea / density_at(kZigguratTail);
  t.edge[1] = kZigguratTail;
  // Each layer above has the same area v: edge[i + 1] is where the density reaches f(edge[i]) + v / edge[i].
  for (int i = 1; i < kZigguratLayers - 1; ++i)
    t.edge[i + 1] = std::sqrt(-2 * std::log(density_at(t.edge[i]) + kZigguratArea / t.edge[i]));
  t.edge[kZigguratLayers] = 0;
  for (int i = 0; i <= kZigguratLayers; ++i) t.density[i] = i == 0 ? 0 : density_at(t.edge[i]);
  for (int i = 0; i < kZigguratLayers; ++i) {
    const double ratio = t.edge[i + 1] / t.edge[i];
    t.below32[i] = static_cast<std::uint32_t>(std::floor(ratio * 0x1p23));
    t.width32[i] = static_cast<float>(t.edge[i] * 0x1p-23);
    t.below64[i] = static_cast<std::uint64_t>(std::floor(ratio * 0x1p52));
    t.width64[i] = t.edge[i] * 0x1p-52;
  }
  return t;
}

}  // namespace

const kernels::ZigguratTables& ziggurat_tables() {
  static const kernels::ZigguratTables tables = make_ziggurat_tables();
  return tables;
}

}  // namespace xp::detail
