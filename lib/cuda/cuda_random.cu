// Random samples on GPUs: one thread a block of the generator's stream (kernels/xp/kernels/
// random_dispatch.hpp), the same code as the CPU's. Compiled with --fmad=false: a product and a sum
// stay two roundings, as on the host, so every sample is the same bits.
#include <array>
#include <mutex>

#include "core/ziggurat_tables.hpp"
#include "cuda/cuda_check.hpp"
#include "cuda/cuda_view_loops.hpp"
#include "xp/kernels/cuda/launch.cuh"
#include "xp/kernels/cuda/scoped_device.hpp"
#include "xp/kernels/random_dispatch.hpp"

namespace xp::detail {

namespace {

__device__ kernels::ZigguratTables device_tables;

// The host's tables, copied to the device the first time it samples.
const kernels::ZigguratTables* ziggurat_tables_on(int device) {
  static std::array<std::once_flag, Device::kMaxDeviceId> copied;
  std::call_once(copied[device], [&] {
    XP_CUDA_CHECK(cudaMemcpyToSymbol(device_tables, &ziggurat_tables(), sizeof(kernels::ZigguratTables)), device);
  });
  void* address = nullptr;
  XP_CUDA_CHECK(cudaGetSymbolAddress(&address, device_tables), device);
  return static_cast<const kernels::ZigguratTables*>(address);
}

template <class Sampler>
__global__ void sample_blocks(Sampler sampler, kernels::PhiloxKey key, unsigned long long first_block, long long blocks,
                              long long size, typename Sampler::result_type* out) {
  for (long long block = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; block < blocks;
       block += static_cast<long long>(gridDim.x) * blockDim.x)
    kernels::sample_block(sampler, key, first_block, block, size, out);
}

}  // namespace

void cuda_random(void* out, std::int64_t size, xp::dtype type, const RandomCall& call, const Exec& exec) {
  if (size == 0) return;
  const int device = exec.device.id();
  const ScopedCudaDevice scope(device);
  const auto stream = static_cast<cudaStream_t>(exec.stream.native_handle());
  const kernels::ZigguratTables* tables = ziggurat_tables_on(device);
  kernels::with_random_sampler(call, type, tables, [&]<class Sampler>(const Sampler& sampler) {
    const std::int64_t blocks = kernels::blocks_for<Sampler>(size);
    launch<&sample_blocks<Sampler>>(device, blocks, stream, sampler, kernels::philox_key(call),
                                    static_cast<unsigned long long>(call.first_block), static_cast<long long>(blocks),
                                    static_cast<long long>(size), static_cast<typename Sampler::result_type*>(out));
  });
}

}  // namespace xp::detail
