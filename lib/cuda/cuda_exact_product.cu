#include "cuda/cuda_gemm.hpp"
#include "xp/kernels/compute_dtypes.hpp"
#include "xp/kernels/cuda/launch.cuh"
#include "xp/kernels/exact_product.hpp"

namespace xp::detail {

namespace {

// One thread per element of C, over every product of the batch (grid-stride).
template <class T>
__global__ void exact_product_kernel(kernels::ExactProduct<T> product, GemmBatch batch, long long m, long long n,
                                     long long total) {
  const long long per_product = m * n;
  for (long long position = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; position < total;
       position += static_cast<long long>(gridDim.x) * blockDim.x) {
    const long long element = position % per_product;
    const GemmBatch::Offsets at = batch.offsets(position / per_product);
    product(at.a, at.b, at.c, element / n, element % n);
  }
}

}  // namespace

void cuda_exact_product(const GemmCall& call, const Exec& exec) {
  const int device = exec.device.id();
  const ScopedCudaDevice scope(device);
  const auto stream = static_cast<cudaStream_t>(exec.stream.native_handle());
  const MatrixStrides a = strides_of(call.a_form), b = strides_of(call.b_form);
  const long long total = call.batch.count() * call.m * call.n;
  kernels::visit_compute_dtype(call.type, [&](auto type) {
    using T = typename decltype(type)::type;
    if constexpr (!std::is_floating_point_v<T> && !kernels::is_complex_v<T>) {  // the others go to cuBLAS
      const kernels::ExactProduct<T> product{static_cast<const T*>(call.a), a.rows,   a.cols,
                                             static_cast<const T*>(call.b), b.rows,   b.cols,
                                             static_cast<T*>(call.c),       call.ldc, call.k};
      launch<&exact_product_kernel<T>>(device, total, stream, product, call.batch, call.m, call.n, total);
    }
  });
}

}  // namespace xp::detail
