#pragma once
// A scalar operand converted, as the library's element cast does (kernels::cast), to one element of another dtype.
#include "xp/detail/elementwise_ops.hpp"

namespace xp::detail {

// The bits of one element of `target` holding the scalar's value converted.
ElementBits cast_scalar(const ScalarValue& scalar, xp::dtype target);

}  // namespace xp::detail
