#pragma once
// The view of a diagonal (xp::diagonal without autograd, lib/api/array/views.cpp).
#include <cstdint>

#include "xp/ndarray.hpp"

namespace xp::detail {

// The elements (i, i + offset) of the planes of axis1 and axis2, as a last axis; ValueErrors naming the axes.
ArrayCore diagonal(const ArrayCore& a, std::int64_t offset, int axis1, int axis2);

}  // namespace xp::detail
