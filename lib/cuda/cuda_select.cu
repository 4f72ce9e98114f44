// The positions of true flags on GPUs: CUB's DeviceSelect::Flagged over the positions, and the count
// read back (the one synchronisation: the caller's result size depends on it).
#include <thrust/iterator/counting_iterator.h>

#include <cub/device/device_select.cuh>

#include "cuda/cuda_check.hpp"
#include "cuda/cuda_segments.hpp"
#include "xp/kernels/cuda/scoped_device.hpp"
#include "xp/memory_pool.hpp"

namespace xp::detail {

std::int64_t cuda_select(const SelectCall& call, const Exec& exec) {
  if (call.length == 0) return 0;
  const int device = exec.device.id();
  const ScopedCudaDevice scope(device);
  const auto stream = static_cast<cudaStream_t>(exec.stream.native_handle());
  const Allocation selected = call.scratch->malloc(sizeof(long long), exec.stream);
  auto* const count = static_cast<long long*>(selected.get());
  auto* const positions = reinterpret_cast<long long*>(call.positions);
  const auto all = thrust::make_counting_iterator<long long>(0);
  std::size_t bytes = 0;
  const auto run = [&](void* temp) {
    return cub::DeviceSelect::Flagged(temp, bytes, all, call.flags, positions, count, call.length, stream);
  };
  XP_CUDA_CHECK(run(nullptr), device);
  const Allocation temp = call.scratch->malloc(std::max<std::size_t>(bytes, 1), exec.stream);
  XP_CUDA_CHECK(run(temp.get()), device);
  long long host = 0;
  XP_CUDA_CHECK(cudaMemcpyAsync(&host, count, sizeof host, cudaMemcpyDeviceToHost, stream), device);
  XP_CUDA_CHECK(cudaStreamSynchronize(stream), device);
  return host;
}

}  // namespace xp::detail
