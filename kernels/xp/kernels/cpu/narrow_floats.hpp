#pragma once
// Bulk conversions between float and the 2-byte floats, for the CPU loops that compute 2-byte
// operands in float: the rounding of element_types.hpp (to nearest, ties to even), with x86's F16C
// instructions where the CPU has them. Compiled once, in the library, for its built-in operations
// (not exported: no user loop reads 2-byte operands as float).
#include <cstdint>

#include "xp/kernels/element_types.hpp"

namespace xp::detail {

void widen_floats(const float16* in, float* out, std::int64_t n) noexcept;
void widen_floats(const bfloat16* in, float* out, std::int64_t n) noexcept;
void narrow_floats(const float* in, float16* out, std::int64_t n) noexcept;
void narrow_floats(const float* in, bfloat16* out, std::int64_t n) noexcept;

}  // namespace xp::detail
