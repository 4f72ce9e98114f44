// bincount on GPUs: CUB's DeviceHistogram::HistogramEven for counts (privatised in shared memory),
// atomic additions for sums of weights and for more bins than its int levels take.
#include <cub/device/device_histogram.cuh>
#include <limits>

#include "cuda/cuda_check.hpp"
#include "cuda/cuda_segments.hpp"
#include "xp/kernels/cuda/launch.cuh"
#include "xp/memory_pool.hpp"

namespace xp::detail {

namespace {

template <class T>
__global__ void zero(T* out, long long n) {
  for (long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<long long>(gridDim.x) * blockDim.x)
    out[i] = T(0);
}

// weights null: counts (unsigned long long, the int64 output's bits).
template <class T>
__global__ void add_to_bins(const long long* bin_of, const double* weights, long long n, T* out) {
  for (long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<long long>(gridDim.x) * blockDim.x) {
    if constexpr (std::is_same_v<T, double>) atomicAdd(out + bin_of[i], weights[i]);
    else atomicAdd(out + bin_of[i], 1ull);
  }
}

template <class T>
void atomic_bincount(const BincountCall& call, int device, cudaStream_t stream) {
  auto* const out = static_cast<T*>(call.out);
  launch<&zero<T>>(device, call.bins, stream, out, call.bins);
  if (call.length > 0)
    launch<&add_to_bins<T>>(device, call.length, stream, reinterpret_cast<const long long*>(call.bin_of), call.weights,
                            call.length, out);
}

void histogram_even(const BincountCall& call, const Exec& exec, int device, cudaStream_t stream) {
  auto* const out = static_cast<unsigned long long*>(call.out);
  const auto* const samples = reinterpret_cast<const long long*>(call.bin_of);
  const int levels = static_cast<int>(call.bins + 1);
  std::size_t bytes = 0;
  const auto run = [&](void* temp) {
    return cub::DeviceHistogram::HistogramEven(temp, bytes, samples, out, levels, 0ll,
                                               static_cast<long long>(call.bins), call.length, stream);
  };
  XP_CUDA_CHECK(run(nullptr), device);
  const Allocation temp = call.scratch->malloc(std::max<std::size_t>(bytes, 1), exec.stream);
  XP_CUDA_CHECK(run(temp.get()), device);
}

}  // namespace

void cuda_bincount(const BincountCall& call, const Exec& exec) {
  if (call.bins == 0) return;
  const int device = exec.device.id();
  const ScopedCudaDevice scope(device);
  const auto stream = static_cast<cudaStream_t>(exec.stream.native_handle());
  if (call.weights) return atomic_bincount<double>(call, device, stream);
  if (call.bins < std::numeric_limits<int>::max() && call.length < std::numeric_limits<int>::max())
    return histogram_even(call, exec, device, stream);
  atomic_bincount<unsigned long long>(call, device, stream);
}

}  // namespace xp::detail
