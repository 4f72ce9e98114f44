#pragma once
// The ziggurat's layers (kernels/xp/kernels/ziggurat.hpp), computed once on the host: the CPU reads
// them here, GPUs from a copy of these bits.
#include "xp/kernels/ziggurat.hpp"

namespace xp::detail {

const kernels::ZigguratTables& ziggurat_tables();

}  // namespace xp::detail
