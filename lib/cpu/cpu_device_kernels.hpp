#pragma once
// The device kernels of host devices (cpu and cpu_pinned): the loop drivers of
// kernels/xp/kernels/cpu/, run on the calling thread (OpenMP inside), BLAS for floating products.
#include "core/device_kernels.hpp"

namespace xp::detail {

DeviceKernels& cpu_device_kernels();

}  // namespace xp::detail
