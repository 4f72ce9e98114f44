// Scans on GPUs: CUB's DeviceScan over one row, its by-key form over many (the key of an element is
// its row), and a kernel of running sums down the columns when the axis is not the last one (each
// thread one column, neighbouring threads neighbouring columns: coalesced). Scratch from the device's
// pool on the call's stream.
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include <cub/device/device_scan.cuh>

#include "cuda/cuda_check.hpp"
#include "cuda/cuda_segments.hpp"
#include "xp/error.hpp"
#include "xp/kernels/arithmetic.hpp"
#include "xp/kernels/complex_math.hpp"
#include "xp/kernels/cuda/launch.cuh"
#include "xp/memory_pool.hpp"

namespace xp::detail {

namespace {

struct RowOf {
  long long length;
  __host__ __device__ long long operator()(long long i) const { return i / length; }
};

template <class T, class Op>
__global__ void scan_columns(const T* in, T* out, long long columns, long long length, long long inner, Op op) {
  for (long long c = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; c < columns;
       c += static_cast<long long>(gridDim.x) * blockDim.x) {
    const long long first = c / inner * length * inner + c % inner;
    T acc = in[first];
    out[first] = acc;
    for (long long j = 1; j < length; ++j) {
      acc = op(acc, in[first + j * inner]);
      out[first + j * inner] = acc;
    }
  }
}

template <class T, class Op>
void scan_rows(const ScanCall& call, const Exec& exec, int device, cudaStream_t stream, Op op) {
  const auto* const in = static_cast<const T*>(call.input);
  auto* const out = static_cast<T*>(call.output);
  const long long n = call.outer * call.length;
  const auto rows = thrust::make_transform_iterator(thrust::make_counting_iterator<long long>(0), RowOf{call.length});
  std::size_t bytes = 0;
  const auto scan = [&](void* temp) {
    if (call.outer == 1) return cub::DeviceScan::InclusiveScan(temp, bytes, in, out, op, n, stream);
    return cub::DeviceScan::InclusiveScanByKey(temp, bytes, rows, in, out, op, n, cuda::std::equal_to<>{}, stream);
  };
  XP_CUDA_CHECK(scan(nullptr), device);
  const Allocation temp = call.scratch->malloc(std::max<std::size_t>(bytes, 1), exec.stream);
  XP_CUDA_CHECK(scan(temp.get()), device);
}

template <class T, class Op>
void scan_typed(const ScanCall& call, const Exec& exec, Op op) {
  const int device = exec.device.id();
  const ScopedCudaDevice scope(device);
  const auto stream = static_cast<cudaStream_t>(exec.stream.native_handle());
  if (call.inner == 1) return scan_rows<T>(call, exec, device, stream, op);
  const long long columns = call.outer * call.inner;
  launch<&scan_columns<T, Op>>(device, columns, stream, static_cast<const T*>(call.input), static_cast<T*>(call.output),
                               columns, call.length, call.inner, op);
}

template <class T>
void scan_as(const ScanCall& call, const Exec& exec) {
  if (call.op == ScanOp::sum) scan_typed<T>(call, exec, kernels::Add{});
  else scan_typed<T>(call, exec, kernels::Multiply{});
}

}  // namespace

void cuda_scan(const ScanCall& call, const Exec& exec) {
  if (call.outer == 0 || call.length == 0 || call.inner == 0) return;
  switch (call.type) {
    // Sums and products of int64 and uint64 have the same bits (both wrap modulo 2^64): one instantiation.
    case xp::dtype::int64:
    case xp::dtype::uint64: return scan_as<unsigned long long>(call, exec);
    case xp::dtype::float32: return scan_as<float>(call, exec);
    case xp::dtype::float64: return scan_as<double>(call, exec);
    case xp::dtype::complex64: return scan_as<kernels::kernel_value_t<std::complex<float>>>(call, exec);
    case xp::dtype::complex128: return scan_as<kernels::kernel_value_t<std::complex<double>>>(call, exec);
    default: XP_ASSERT(false);
  }
}

}  // namespace xp::detail
