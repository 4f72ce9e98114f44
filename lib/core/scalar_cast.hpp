#pragma once
// A scalar operand converted, as C++'s static_cast does, to one element of another dtype.
#include <cstdint>

#include "xp/detail/elementwise_ops.hpp"

namespace xp::detail {

// The bits of one element of `target` holding static_cast<target>(scalar).
std::uint64_t cast_scalar(const ScalarValue& scalar, xp::dtype target);

}  // namespace xp::detail
