#pragma once
/// \file
/// Compile-time backend tags, for templated code written once for every backend:
///
/// \code{.cpp}
///   xp::visit_backend(x.device(), [&](auto backend) {
///     thrust::sort(xp::execution_policy(backend), x.data(), x.data() + x.size());   // <xp/thrust.hpp>
///   });
/// \endcode
///
/// visit_backend calls f with cpu_backend{} for cpu and cpu_pinned devices and cuda_backend{} for
/// GPUs, and for GPUs makes the device the CUDA runtime's current one while f runs (restoring the
/// previous one after), so that vendor calls inside f act on the array's GPU.
#include <type_traits>

#include "xp/device.hpp"
#include "xp/export.hpp"
#include "xp/kernels/cuda/scoped_device.hpp"

namespace xp {

/// The tag visit_backend passes for cpu and cpu_pinned devices.
struct XP_API cpu_backend {
  static constexpr bool is_gpu = false;  ///< false
};

/// The tag visit_backend passes for GPUs.
struct XP_API cuda_backend {
  static constexpr bool is_gpu = true;  ///< true
  int device_id = 0;  ///< the GPU's ordinal
};

/// Calls f with the device's backend tag (see the file's notes); f must return one type for both.
template <class F>
decltype(auto) visit_backend(Device device, F&& f) {
  static_assert(std::is_same_v<std::invoke_result_t<F, cpu_backend>, std::invoke_result_t<F, cuda_backend>>,
                "visit_backend: f must return the same type for every backend");
  if (device.is_host()) return f(cpu_backend{});
  const detail::ScopedCudaDevice scope(device.id());
  return f(cuda_backend{device.id()});
}

}  // namespace xp
