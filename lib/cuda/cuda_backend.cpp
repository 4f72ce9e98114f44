#include "cuda/cuda_backend.hpp"
#include "cuda/cuda_builtins.hpp"

#include <cuda_runtime_api.h>

#include <array>
#include <memory>
#include <mutex>

#include "core/layout.hpp"
#include "cuda/cuda_allocators.hpp"
#include "cuda/cuda_check.hpp"
#include "cuda/cuda_device_guard.hpp"
#include "cuda/cuda_gemm.hpp"
#include "cuda/cuda_reductions.hpp"
#include "cuda/cuda_user_kernels.hpp"
#include "cuda/cuda_view_loops.hpp"
#include "cuda/nccl_allreduce.hpp"
#include "cuda/nccl_communicator.hpp"

namespace xp::detail {

namespace {

cudaStream_t native(const Stream& stream) { return static_cast<cudaStream_t>(stream.native_handle()); }

class CudaBackend final : public Backend {
 public:
  RawAllocator& raw_allocator(Device device) override {
    if (device.type() == DeviceType::cpu_pinned) return pinned_allocator_;
    check_gpu_exists(device.id());
    const std::lock_guard lock(mutex_);
    auto& allocator = device_allocators_[device.id()];
    if (!allocator) allocator = std::make_unique<CudaDeviceAllocator>(device.id());
    return *allocator;
  }

  MemoryInfo memory_info(Device device) override {
    const CudaDeviceGuard guard(device.id());
    MemoryInfo info;
    XP_CUDA_CHECK(cudaMemGetInfo(&info.free, &info.total), device.id());
    return info;
  }

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

  void random(const StridedView& dst, const RandomCall& call, const Exec& exec) override {
    cuda_random(dst, call, exec);
  }

  void elementwise(const ElementwiseCall& call, const ElementwisePlan& plan) override {
    kernels::with_group(call.op, [&]<kernels::OpGroup G>() { cuda_builtin_group<G>(call, plan); });
  }
  // Every GPU call is planned and launched: the launch, not the plan, is its cost.
  SerialLoop serial_loop(ElementwiseOp, xp::dtype) const noexcept override { return nullptr; }

  void reduce(const ReductionCall& call, const ReductionPlan& plan) override { cuda_reduce(call, plan); }

  void gemm(const GemmCall& call, const Exec& exec) override {
    if (is_floating(call.type)) cuda_blas_gemm(call, exec);
    else cuda_exact_product(call, exec);
  }

  void allreduce_sum(std::span<const CollectiveBuffer> buffers, std::int64_t count, xp::dtype type) override {
    nccl_allreduce_sum(buffers, count, type);
  }

  std::vector<std::byte> new_communicator_id() override { return nccl_unique_id(); }
  std::unique_ptr<Communicator> join_communicator(Device device, std::span<const std::byte> id, int ranks,
                                                  int rank) override {
    return join_nccl_communicator(device, id, ranks, rank);
  }

  KernelTarget kernel_target() const noexcept override { return KernelTarget::cuda; }
  std::string compiler_identity(Device device) override {
    return "cuda " + cuda_architecture(device) + "\n" + nvrtc_identity();
  }
  std::string compile(const std::string& name, const std::string& source, KernelKind, Device device) override {
    return compile_cubin(name, source, cuda_architecture(device));
  }
  std::unique_ptr<CompiledModule> load_module(std::string_view payload, const std::string& name, KernelKind kind,
                                              Device) override {
    return std::make_unique<CudaModule>(payload, name, kind);
  }

 private:
  std::mutex mutex_;
  std::array<std::unique_ptr<CudaDeviceAllocator>, Device::kMaxDeviceId> device_allocators_;
  CudaPinnedAllocator pinned_allocator_;
};

}  // namespace

Backend* cuda_backend() noexcept {
  static CudaBackend backend;
  return &backend;
}

}  // namespace xp::detail
