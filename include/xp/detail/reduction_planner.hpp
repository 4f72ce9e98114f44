#pragma once
// Planning a reduction over an array (lib/api/ops/reduction_planner.cpp).
#include <string_view>

#include "xp/axes.hpp"
#include "xp/detail/reduction_plan.hpp"
#include "xp/export.hpp"
#include "xp/ndarray.hpp"

namespace xp::detail {

// Plans `op` over `axes` of x into a new array of dtype `result` (extent-1 axes kept where
// keepdims). Axis errors are ValueErrors, as CuPy's: "sum: axis 2 is out of bounds for array of
// dimension 2", "sum: duplicate value in 'axis'". An `ordered` reduction sees the reduced elements
// in C order (arg reductions report positions); others may see them in any order, which lets the
// plan walk memory forwards and innermost-first.
XP_API ArrayCore plan_reduction(std::string_view op, const ArrayCore& x, const Axes& axes, bool keepdims, bool ordered,
                                xp::dtype result, ReductionPlan& plan);

}  // namespace xp::detail
