#pragma once
// Launchers of the strided kernels (compiled by nvcc in cuda_kernels.cu). The caller has set the
// device; `stream` is a cudaStream_t. Launch failures throw CudaError.
#include "core/backend.hpp"

namespace xp::detail {

void launch_copy_cast(const StridedView& src, const StridedView& dst, void* stream, int device_id);
void launch_fill(const StridedView& dst, const void* value, void* stream, int device_id);
void launch_iota(const StridedView& dst, const IotaRange& range, void* stream, int device_id);
void launch_random(const StridedView& dst, const RandomCall& call, void* stream, int device_id);

}  // namespace xp::detail
