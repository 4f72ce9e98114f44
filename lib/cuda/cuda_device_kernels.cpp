// The device kernels of GPUs: the built-in operations' kernels (kernels/xp/kernels/cuda/), the view
// loops (cuda_view_loops.hpp), cuBLAS for floating products, every launch on exec.stream.
#include "cuda/cuda_builtins.hpp"
#include "cuda/cuda_services.hpp"

#include <cuda_runtime_api.h>

#include "core/layout.hpp"
#include "cuda/cuda_check.hpp"
#include "cuda/cuda_device_guard.hpp"
#include "cuda/cuda_gemm.hpp"
#include "cuda/cuda_reductions.hpp"
#include "cuda/cuda_segments.hpp"
#include "cuda/cuda_solver.hpp"
#include "cuda/cuda_view_loops.hpp"

namespace xp::detail {

namespace {

cudaStream_t native(const Stream& stream) { return static_cast<cudaStream_t>(stream.native_handle()); }

class CudaDeviceKernels final : public DeviceKernels {
 public:
  void copy_cast(const StridedView& src, const StridedView& dst, const Exec& exec) override {
    const int id = exec.device.id();
    const CudaDeviceGuard guard(id);
    if (src.type == dst.type && is_c_contiguous(src.shape, src.strides) && is_c_contiguous(dst.shape, dst.strides)) {
      const std::size_t bytes = static_cast<std::size_t>(numel(src.shape)) * itemsize(src.type);
      XP_CUDA_CHECK(cudaMemcpyAsync(dst.data, src.data, bytes, cudaMemcpyDeviceToDevice, native(exec.stream)), id);
      return;
    }
    cuda_copy_cast(src, dst, exec);
  }

  void fill(const StridedView& dst, const void* value, const Exec& exec) override { cuda_fill(dst, value, exec); }

  void iota(const StridedView& dst, const IotaRange& range, const Exec& exec) override { cuda_iota(dst, range, exec); }

  void random(void* out, std::int64_t size, xp::dtype type, const RandomCall& call, const Exec& exec) override {
    cuda_random(out, size, type, call, exec);
  }
  void random_permutation(std::int64_t* out, std::int64_t n, const RandomCall& keys, MemoryPool& scratch,
                          const Exec& exec) override {
    if (n == 0) return;
    const Allocation drawn = scratch.malloc(static_cast<std::size_t>(n) * sizeof(std::uint64_t), exec.stream);
    cuda_random(drawn.get(), n, xp::dtype::uint64, keys, exec);
    SortCall call;
    call.type = xp::dtype::uint64;
    call.keys = drawn.get();
    call.indices = out;
    call.segments = 1;
    call.length = n;
    call.scratch = &scratch;
    cuda_sort(call, exec);
  }

  void elementwise(const ElementwiseCall& call, const ElementwisePlan& plan) override {
    kernels::with_group(call.op, [&]<kernels::OpGroup G>() { cuda_builtin_group<G>(call, plan); });
  }
  // Every GPU call is planned and launched: the launch, not the plan, is its cost.
  SerialLoop serial_loop(ElementwiseOp, xp::dtype) const noexcept override { return nullptr; }

  void reduce(const ReductionCall& call, const ReductionPlan& plan) override { cuda_reduce(call, plan); }

  void sort(const SortCall& call, const Exec& exec) override { cuda_sort(call, exec); }
  void scan(const ScanCall& call, const Exec& exec) override { cuda_scan(call, exec); }
  void gather(const GatherCall& call, const Exec& exec) override { cuda_gather(call, exec); }
  void search(const SearchCall& call, const Exec& exec) override { cuda_search(call, exec); }
  std::int64_t select(const SelectCall& call, const Exec& exec) override { return cuda_select(call, exec); }
  void bincount(const BincountCall& call, const Exec& exec) override { cuda_bincount(call, exec); }
  IndexFault gather_indexed(const IndexedCall& call, const Exec& exec) override {
    return cuda_gather_indexed(call, exec);
  }
  IndexFault scatter_indexed(const IndexedCall& call, const Exec& exec) override {
    return cuda_scatter_indexed(call, exec);
  }

  void gemm(const GemmCall& call, const Exec& exec) override {
    if (is_floating(call.type) || is_complex(call.type)) cuda_blas_gemm(call, exec);
    else cuda_exact_product(call, exec);
  }
  bool multiplies(xp::dtype) const noexcept override { return true; }  // cuBLAS's GemmEx takes 2-byte floats
  void solver(const SolverCall& call, const Exec& exec) override { cuda_solver(call, exec); }
};

}  // namespace

DeviceKernels* cuda_device_kernels() noexcept {
  static CudaDeviceKernels kernels;
  return &kernels;
}

}  // namespace xp::detail
