#pragma once
// Copies with a cast, fills, arange and random numbers on GPUs: plans of views (core/view_plan.hpp)
// run by the elementwise kernels of the built-in operations, on exec.stream. Launch failures throw
// CudaError.
#include "core/backend.hpp"

namespace xp::detail {

void cuda_copy_cast(const StridedView& src, const StridedView& dst, const Exec& exec);  // cuda_copy_cast.cu
void cuda_fill(const StridedView& dst, const void* value, const Exec& exec);  // cuda_generators.cu
void cuda_iota(const StridedView& dst, const IotaRange& range, const Exec& exec);
void cuda_random(const StridedView& dst, const RandomCall& call, const Exec& exec);

}  // namespace xp::detail
