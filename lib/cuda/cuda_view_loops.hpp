#pragma once
// Copies with a cast, fills and arange on GPUs: core/view_kernels.hpp over the elementwise kernels of
// the built-in operations, instantiated by nvcc (cuda_copy_cast.cu, cuda_generators.cu), and random
// samples (cuda_random.cu), on exec.stream. Launch failures throw CudaError.
#include "core/device_kernels.hpp"

namespace xp::detail {

void cuda_copy_cast(const StridedView& src, const StridedView& dst, const Exec& exec);  // cuda_copy_cast.cu
void cuda_fill(const StridedView& dst, const void* value, const Exec& exec);  // cuda_generators.cu
void cuda_iota(const StridedView& dst, const IotaRange& range, const Exec& exec);
void cuda_random(void* out, std::int64_t size, xp::dtype type, const RandomCall& call, const Exec& exec);

}  // namespace xp::detail
