#pragma once
// The built-in reductions on the CPU (cpu_reductions.cpp).
#include "xp/detail/reduction_ops.hpp"
#include "xp/detail/reduction_plan.hpp"

namespace xp::detail {

void cpu_reduce(const ReductionCall& call, const ReductionPlan& plan);

}  // namespace xp::detail
