#pragma once
/// \file
/// Thrust execution policies for the backend tags (opt-in: link xp::thrust, which adds Thrust's
/// headers and OpenMP):
/// - cpu_backend: thrust::omp::par, on the CPU's threads;
/// - cuda_backend: thrust::cuda::par_nosync on the stream (default: the device's current stream),
///   with temporary storage from the device's memory pool, from that stream's blocks; it does not
///   wait for the GPU, as the rest of the library. Only files nvcc compiles can run Thrust on GPUs: elsewhere the call
///   compiles (so that code visiting both backends builds) and throws NotImplementedError.
#include <thrust/system/omp/execution_policy.h>

#include <type_traits>

#include "xp/backend.hpp"
#include "xp/error.hpp"
#include "xp/export.hpp"
#include "xp/stream.hpp"

#if defined(__CUDACC__)
#include <thrust/system/cuda/execution_policy.h>

#include <cstddef>
#include <memory>
#include <mutex>
#include <unordered_map>

#include "xp/memory_pool.hpp"
#endif

namespace xp {

/// Thrust's OpenMP policy for host arrays.
inline auto execution_policy(cpu_backend) { return thrust::omp::par; }

#if defined(__CUDACC__)
/// Thrust's temporary storage from a device's pool. Copies share the blocks they handed out.
class XP_API ThrustPoolAllocator {
 public:
  using value_type = char;

  explicit ThrustPoolAllocator(Stream stream) : stream_(std::move(stream)), blocks_(std::make_shared<Blocks>()) {}

  char* allocate(std::ptrdiff_t bytes) {
    Allocation block = get_default_memory_pool(stream_.device()).malloc(static_cast<std::size_t>(bytes), stream_);
    char* p = static_cast<char*>(block.get());
    const std::lock_guard lock(blocks_->mutex);
    blocks_->held.emplace(p, std::move(block));
    return p;
  }

  void deallocate(char* p, std::size_t) {
    const std::lock_guard lock(blocks_->mutex);
    blocks_->held.erase(p);
  }

 private:
  struct Blocks {
    std::mutex mutex;
    std::unordered_map<char*, Allocation> held;
  };
  Stream stream_;
  std::shared_ptr<Blocks> blocks_;
};

inline auto execution_policy(cuda_backend backend, const Stream* stream = nullptr) {
  const Device device = gpu(backend.device_id);
  XP_CHECK(!stream || stream->device() == device, DeviceMismatchError, "execution_policy: the stream is on ",
           stream->device(), " but the policy is for ", device);
  Stream on = stream ? *stream : current_stream(device);
  const auto native = static_cast<cudaStream_t>(on.native_handle());
  return thrust::cuda::par_nosync(ThrustPoolAllocator(std::move(on))).on(native);
}
#else
/// Outside nvcc there is no CUDA Thrust: NotImplementedError.
inline auto execution_policy(cuda_backend backend, const Stream* = nullptr)
    -> std::decay_t<decltype(thrust::omp::par)> {
  throw NotImplementedError("execution_policy: Thrust runs on ", gpu(backend.device_id),
                            " only in files compiled by nvcc");
}
#endif

}  // namespace xp
