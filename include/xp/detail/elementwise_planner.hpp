#pragma once
// Planning an elementwise operation over arrays (lib/api/ops/elementwise_planner.cpp).
#include <span>
#include <string_view>

#include "xp/detail/elementwise_plan.hpp"
#include "xp/export.hpp"
#include "xp/ndarray.hpp"

namespace xp::detail {

// Plans `op` over its inputs (null for a scalar input) writing to a new array of dtype `result`,
// which it returns, or (second form) to `out`. Input I is argument I of `op` in error messages.
// Checks that every operand is on one device (DeviceMismatchError), broadcasts (ValueError), lets
// `out` alias an input exactly (in place) and copies inputs that overlap it otherwise.
XP_API ArrayCore plan_elementwise(std::string_view op, std::span<const ArrayCore* const> inputs, xp::dtype result,
                                  ElementwisePlan& plan);
XP_API void plan_elementwise(std::string_view op, std::span<const ArrayCore* const> inputs, const ArrayCore& out,
                             ElementwisePlan& plan);

// The plan of operands known to be C-contiguous arrays (null: a scalar) of `out`'s shape on its
// device, aliasing `out` only exactly: the common case, planned without broadcasting or squashing.
XP_API void plan_contiguous(std::span<const ArrayCore* const> inputs, const ArrayCore& out, ElementwisePlan& plan);

}  // namespace xp::detail
