#pragma once
// The shape of an elementwise loop, for the built-in operations and run-time kernels alike
// (defined in elementwise_planner.cpp).
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

#include "xp/shape.hpp"

namespace xp::detail {

// The loop over `broadcast` (the shapes of the operands that are walked elementwise) broadcast
// together, or over `size` elements when it is given: a run-time kernel's `size`, which CuPy allows
// only when every array is raw. ValueErrors naming `op`, with CuPy's words where CuPy has them.
Shape loop_shape(std::string_view op, std::span<const Shape* const> broadcast, std::optional<std::int64_t> size);

}  // namespace xp::detail
