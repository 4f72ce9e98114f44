#pragma once
// The built-in elementwise operations on the CPU, one group per compiled file (cpu_builtins.inc).
#include "core/device_kernels.hpp"
#include "xp/detail/elementwise_ops.hpp"
#include "xp/detail/elementwise_plan.hpp"
#include "xp/kernels/builtin_dispatch.hpp"

namespace xp::detail {

template <kernels::OpGroup G>
void cpu_builtin_group(const ElementwiseCall& call, const ElementwisePlan& plan);

// The serial loop of call.op in call.compute over C-contiguous arrays of that dtype, or null when
// the operation's functor has state or its inputs are of other types.
template <kernels::OpGroup G>
DeviceKernels::SerialLoop cpu_serial_loop_group(const ElementwiseCall& call);

}  // namespace xp::detail
