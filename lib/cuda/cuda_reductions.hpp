#pragma once
// The built-in reductions on GPUs (cuda_reductions.cu).
#include "xp/detail/reduction_ops.hpp"
#include "xp/detail/reduction_plan.hpp"

namespace xp::detail {

void cuda_reduce(const ReductionCall& call, const ReductionPlan& plan);

}  // namespace xp::detail
