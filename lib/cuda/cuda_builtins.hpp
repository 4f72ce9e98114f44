#pragma once
// The built-in elementwise operations on GPUs, one group per compiled file (cuda_builtins.inc).
#include "xp/detail/elementwise_ops.hpp"
#include "xp/detail/elementwise_plan.hpp"
#include "xp/kernels/builtin_dispatch.hpp"

namespace xp::detail {

template <kernels::OpGroup G>
void cuda_builtin_group(const ElementwiseCall& call, const ElementwisePlan& plan);

}  // namespace xp::detail
