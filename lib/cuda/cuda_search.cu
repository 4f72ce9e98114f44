// searchsorted on GPUs: a thread per query, binary search in NumPy's order (kernels/sorted_search.hpp).
#include "cuda/cuda_segments.hpp"
#include "xp/kernels/cuda/launch.cuh"
#include "xp/kernels/sorted_search.hpp"

namespace xp::detail {

namespace {

using kernels::KeyFormat;

template <KeyFormat F, int Parts, class K>
__global__ void search_sorted(const K* sorted, long long length, const K* queries, long long count, bool right,
                              long long* positions) {
  for (long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; i < count;
       i += static_cast<long long>(gridDim.x) * blockDim.x)
    positions[i] = kernels::insertion_point<F, Parts>(sorted, length, queries + i * Parts, right);
}

}  // namespace

void cuda_search(const SearchCall& call, const Exec& exec) {
  if (call.count == 0) return;
  const int device = exec.device.id();
  const ScopedCudaDevice scope(device);
  const auto stream = static_cast<cudaStream_t>(exec.stream.native_handle());
  auto* const positions = reinterpret_cast<long long*>(call.positions);
  kernels::with_key_format(call.type, [&]<KeyFormat F, class K>() {
    const auto* const sorted = static_cast<const K*>(call.sorted);
    const auto* const queries = static_cast<const K*>(call.queries);
    if (is_complex(call.type))
      launch<&search_sorted<F, 2, K>>(device, call.count, stream, sorted, call.length, queries, call.count, call.right,
                                      positions);
    else
      launch<&search_sorted<F, 1, K>>(device, call.count, stream, sorted, call.length, queries, call.count, call.right,
                                      positions);
  });
}

}  // namespace xp::detail
