// Row gathers on GPUs: each row's elements in the order of its positions, moved as bits.
#include "core/bit_dispatch.hpp"
#include "cuda/cuda_segments.hpp"
#include "xp/kernels/cuda/launch.cuh"

namespace xp::detail {

namespace {

template <class T>
__global__ void gather_rows(const T* in, long long source_length, const long long* positions, T* out, long long n,
                            long long length) {
  for (long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<long long>(gridDim.x) * blockDim.x)
    out[i] = in[i / length * source_length + positions[i]];
}

}  // namespace

void cuda_gather(const GatherCall& call, const Exec& exec) {
  const long long n = call.segments * call.length;
  if (n == 0) return;
  const int device = exec.device.id();
  const ScopedCudaDevice scope(device);
  const auto stream = static_cast<cudaStream_t>(exec.stream.native_handle());
  visit_bits(call.itemsize, [&](auto bits) {
    using T = typename decltype(bits)::type;
    launch<&gather_rows<T>>(device, n, stream, static_cast<const T*>(call.input), call.source_length,
                            reinterpret_cast<const long long*>(call.indices), static_cast<T*>(call.output), n,
                            call.length);
  });
}

}  // namespace xp::detail
