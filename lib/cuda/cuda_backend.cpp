#include "cuda/cuda_backend.hpp"
#include "cuda/cuda_builtins.hpp"

#include <cuda_runtime_api.h>

#include <array>
#include <memory>
#include <mutex>
#include <vector>

#include "core/layout.hpp"
#include "cuda/cuda_allocators.hpp"
#include "cuda/cuda_check.hpp"
#include "cuda/cuda_device_guard.hpp"
#include "cuda/cuda_kernels.hpp"
#include "cuda/cuda_reductions.hpp"
#include "cuda/cuda_runtime_info.hpp"

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

  void synchronize(Device device) override {
    {
      const CudaDeviceGuard guard(device.id());
      XP_CUDA_CHECK(cudaDeviceSynchronize(), device.id());
    }
    release_completed();
  }

  void copy_cast(const StridedView& src, const StridedView& dst, const Stream& stream) override {
    const int id = stream.device().id();
    const CudaDeviceGuard guard(id);
    if (src.type == dst.type && is_c_contiguous(src.shape, src.strides) &&
        is_c_contiguous(dst.shape, dst.strides)) {
      const std::size_t bytes = static_cast<std::size_t>(numel(src.shape)) * itemsize(src.type);
      XP_CUDA_CHECK(cudaMemcpyAsync(dst.data, src.data, bytes, cudaMemcpyDeviceToDevice, native(stream)),
                    id);
      return;
    }
    launch_copy_cast(src, dst, stream.native_handle(), id);
  }

  void fill(const StridedView& dst, const void* value, const Stream& stream) override {
    const CudaDeviceGuard guard(stream.device().id());
    launch_fill(dst, value, stream.native_handle(), stream.device().id());
  }

  void iota(const StridedView& dst, const IotaRange& range, const Stream& stream) override {
    const CudaDeviceGuard guard(stream.device().id());
    launch_iota(dst, range, stream.native_handle(), stream.device().id());
  }

  void random(const StridedView& dst, const RandomCall& call, const Stream& stream) override {
    const CudaDeviceGuard guard(stream.device().id());
    launch_random(dst, call, stream.native_handle(), stream.device().id());
  }

  void elementwise(const ElementwiseCall& call, const ElementwisePlan& plan) override {
    kernels::with_group(call.op, [&]<kernels::OpGroup G>() { cuda_builtin_group<G>(call, plan); });
  }

  void reduce(const ReductionCall& call, const ReductionPlan& plan) override {
    cuda_reduce(call, plan);
  }

  void copy_bytes(void* dst, Device, const void* src, Device, std::size_t bytes,
                  const Stream& stream) override {
    if (bytes == 0) return;
    const int id = stream.device().id();
    const CudaDeviceGuard guard(id);
    // Unified addressing tells the runtime where each pointer lives, including peer copies.
    XP_CUDA_CHECK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDefault, native(stream)), id);
  }

  void release_after(const Stream& stream, std::shared_ptr<void> owner) override {
    const int id = stream.device().id();
    cudaEvent_t event;
    {
      const CudaDeviceGuard guard(id);
      XP_CUDA_CHECK(cudaEventCreateWithFlags(&event, cudaEventDisableTiming), id);
      XP_CUDA_CHECK(cudaEventRecord(event, native(stream)), id);
    }
    {
      const std::lock_guard lock(mutex_);
      pending_.push_back({event, std::move(owner)});
    }
    release_completed();
  }

  void* create_stream(Device device, bool non_blocking) override {
    const CudaDeviceGuard guard(device.id());
    cudaStream_t stream;
    XP_CUDA_CHECK(cudaStreamCreateWithFlags(&stream, non_blocking ? cudaStreamNonBlocking : cudaStreamDefault),
                  device.id());
    return stream;
  }

  void destroy_stream(Device device, void* handle) noexcept override {
    // The stream's queued work still completes.
    release_on_device(device.id(), [&] { cudaStreamDestroy(static_cast<cudaStream_t>(handle)); });
  }

  void synchronize_stream(const Stream& stream) override {
    {
      const CudaDeviceGuard guard(stream.device().id());
      XP_CUDA_CHECK(cudaStreamSynchronize(native(stream)), stream.device().id());
    }
    release_completed();
  }

  bool query_stream(const Stream& stream) override {
    const CudaDeviceGuard guard(stream.device().id());
    return is_done(cudaStreamQuery(native(stream)), "cudaStreamQuery", stream.device().id());
  }

  std::shared_ptr<void> create_event(Device device) override {
    const CudaDeviceGuard guard(device.id());
    cudaEvent_t event;
    XP_CUDA_CHECK(cudaEventCreate(&event), device.id());
    return {event, [id = device.id()](void* e) {
              release_on_device(id, [e] { cudaEventDestroy(static_cast<cudaEvent_t>(e)); });
            }};
  }

  void record_event(void* event, const Stream& stream) override {
    const CudaDeviceGuard guard(stream.device().id());
    XP_CUDA_CHECK(cudaEventRecord(static_cast<cudaEvent_t>(event), native(stream)),
                  stream.device().id());
  }

  void synchronize_event(Device device, void* event) override {
    const CudaDeviceGuard guard(device.id());
    XP_CUDA_CHECK(cudaEventSynchronize(static_cast<cudaEvent_t>(event)), device.id());
  }

  bool query_event(Device device, void* event) override {
    const CudaDeviceGuard guard(device.id());
    return is_done(cudaEventQuery(static_cast<cudaEvent_t>(event)), "cudaEventQuery", device.id());
  }

  float elapsed_ms(Device device, void* start, void* end) override {
    const CudaDeviceGuard guard(device.id());
    float ms = 0;
    XP_CUDA_CHECK(cudaEventElapsedTime(&ms, static_cast<cudaEvent_t>(start), static_cast<cudaEvent_t>(end)),
                  device.id());
    return ms;
  }

 private:
  struct PendingRelease {
    cudaEvent_t done;
    std::shared_ptr<void> owner;
  };

  static bool is_done(cudaError_t status, const char* call, int id) {
    if (status == cudaErrorNotReady) {
      cudaGetLastError();
      return false;
    }
    check_cuda(status, call, id);
    return true;
  }

  // Drops the owners whose streams have passed their events.
  void release_completed() {
    std::vector<PendingRelease> finished;
    {
      const std::lock_guard lock(mutex_);
      std::erase_if(pending_, [&](PendingRelease& p) {
        if (cudaEventQuery(p.done) == cudaErrorNotReady) return false;
        finished.push_back(std::move(p));
        return true;
      });
      cudaGetLastError();
    }
    for (PendingRelease& p : finished) cudaEventDestroy(p.done);
  }  // the owners go here, outside the lock: they may return memory to pools

  std::mutex mutex_;
  std::array<std::unique_ptr<CudaDeviceAllocator>, Device::kMaxDeviceId> device_allocators_;
  CudaPinnedAllocator pinned_allocator_;
  std::vector<PendingRelease> pending_;
};

}  // namespace

Backend* cuda_backend() noexcept {
  static CudaBackend backend;
  return &backend;
}

int cuda_device_count() noexcept { return cuda_device_count_info().count; }

}  // namespace xp::detail
