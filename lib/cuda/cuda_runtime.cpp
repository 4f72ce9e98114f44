// The CUDA runtime behind core/runtime.hpp: the runtime API's current device, streams, events and
// asynchronous copies, device and pinned memory, every call checked.
#include <cuda_runtime_api.h>

#include <array>
#include <memory>
#include <mutex>

#include "cuda/cuda_allocators.hpp"
#include "cuda/cuda_check.hpp"
#include "cuda/cuda_device_guard.hpp"
#include "cuda/cuda_runtime_info.hpp"
#include "cuda/cuda_services.hpp"

namespace xp::detail {

namespace {

cudaStream_t native_stream(void* stream) { return static_cast<cudaStream_t>(stream); }
cudaEvent_t native_event(void* event) { return static_cast<cudaEvent_t>(event); }

// True when done; false for cudaErrorNotReady (cleared); throws for a failure.
bool is_done(cudaError_t status, const char* call, int id) {
  if (status == cudaErrorNotReady) {
    cudaGetLastError();
    return false;
  }
  check_cuda(status, call, id);
  return true;
}

class CudaRuntime final : public Runtime {
 public:
  CudaRuntime() noexcept : Runtime(/*host_synchronous=*/false) {}

  int current_device() const override {
    int id = 0;
    XP_CUDA_CHECK(cudaGetDevice(&id), -1);
    return id;
  }
  void set_device(int id) const override { XP_CUDA_CHECK(cudaSetDevice(id), id); }
  void restore_device(int id) const noexcept override { cudaSetDevice(id); }

  int device_count() const noexcept override { return cuda_device_count_info().count; }

  void synchronize_device(Device device) override {
    const CudaDeviceGuard guard(device.id());
    XP_CUDA_CHECK(cudaDeviceSynchronize(), device.id());
  }

  void* create_stream(Device device, const StreamOptions& options) override {
    const CudaDeviceGuard guard(device.id());
    cudaStream_t stream;
    XP_CUDA_CHECK(cudaStreamCreateWithPriority(
                      &stream, options.non_blocking ? cudaStreamNonBlocking : cudaStreamDefault, options.priority),
                  device.id());
    return stream;
  }

  std::pair<int, int> stream_priorities(Device device) override {
    const CudaDeviceGuard guard(device.id());
    int least = 0, greatest = 0;
    XP_CUDA_CHECK(cudaDeviceGetStreamPriorityRange(&least, &greatest), device.id());
    return {least, greatest};
  }

  int stream_priority(Device device, void* stream) override {
    const CudaDeviceGuard guard(device.id());
    int priority = 0;
    XP_CUDA_CHECK(cudaStreamGetPriority(native_stream(stream), &priority), device.id());
    return priority;
  }

  void check_stream(Device device, void* stream) override {
    int owner = 0;
    XP_CUDA_CHECK(cudaStreamGetDevice(native_stream(stream), &owner), device.id());
    XP_CHECK(owner == device.id(), DeviceMismatchError, "ExternalStream: the stream belongs to gpu(", owner,
             "), not to ", device);
  }

  void launch_host_func(Device device, void* stream, void (*fn)(void*), void* data) override {
    const CudaDeviceGuard guard(device.id());
    XP_CUDA_CHECK(cudaLaunchHostFunc(native_stream(stream), fn, data), device.id());
  }

  void destroy_stream(Device device, void* stream) noexcept override {
    // The stream's queued work still completes.
    release_on_device(device.id(), [&] { cudaStreamDestroy(native_stream(stream)); });
  }

  void synchronize_stream(Device device, void* stream) override {
    const CudaDeviceGuard guard(device.id());
    XP_CUDA_CHECK(cudaStreamSynchronize(native_stream(stream)), device.id());
  }

  bool query_stream(Device device, void* stream) override {
    const CudaDeviceGuard guard(device.id());
    return is_done(cudaStreamQuery(native_stream(stream)), "cudaStreamQuery", device.id());
  }

  void* create_event(Device device, const EventOptions& options) override {
    const CudaDeviceGuard guard(device.id());
    cudaEvent_t event;
    const unsigned flags = (options.timing ? 0u : unsigned{cudaEventDisableTiming}) |
                           (options.blocking ? unsigned{cudaEventBlockingSync} : 0u) |
                           (options.interprocess ? unsigned{cudaEventInterprocess} : 0u);
    XP_CUDA_CHECK(cudaEventCreateWithFlags(&event, flags), device.id());
    return event;
  }

  void destroy_event(Device device, void* event) noexcept override {
    // An event still pending is released once the device has passed it.
    release_on_device(device.id(), [&] { cudaEventDestroy(native_event(event)); });
  }

  void record_event(void* event, Device device, void* stream) override {
    const CudaDeviceGuard guard(device.id());
    XP_CUDA_CHECK(cudaEventRecord(native_event(event), native_stream(stream)), device.id());
  }

  void block(void* event, Device device, void* stream) override {
    const CudaDeviceGuard guard(device.id());
    XP_CUDA_CHECK(cudaStreamWaitEvent(native_stream(stream), native_event(event), 0), device.id());
  }

  bool query_event(Device device, void* event) override {
    const CudaDeviceGuard guard(device.id());
    return is_done(cudaEventQuery(native_event(event)), "cudaEventQuery", device.id());
  }

  void synchronize_event(Device device, void* event) override {
    const CudaDeviceGuard guard(device.id());
    XP_CUDA_CHECK(cudaEventSynchronize(native_event(event)), device.id());
  }

  float elapsed_ms(Device device, void* start, void* end) override {
    const CudaDeviceGuard guard(device.id());
    float ms = 0;
    XP_CUDA_CHECK(cudaEventElapsedTime(&ms, native_event(start), native_event(end)), device.id());
    return ms;
  }

  // Thread-local mode: other threads' calls go on as usual; this one's host waits would end the capture.
  void begin_capture(Device device, void* stream) override {
    const CudaDeviceGuard guard(device.id());
    XP_CUDA_CHECK(cudaStreamBeginCapture(native_stream(stream), cudaStreamCaptureModeThreadLocal), device.id());
  }

  void* end_capture(Device device, void* stream) override {
    const CudaDeviceGuard guard(device.id());
    cudaGraph_t graph = nullptr;
    XP_CUDA_CHECK(cudaStreamEndCapture(native_stream(stream), &graph), device.id());
    cudaGraphExec_t executable = nullptr;
    const cudaError_t status = cudaGraphInstantiate(&executable, graph, 0);
    cudaGraphDestroy(graph);  // the executable graph is a copy
    check_cuda(status, "cudaGraphInstantiate", device.id());
    return executable;
  }

  void abandon_capture(Device device, void* stream) noexcept override {
    release_on_device(device.id(), [&] {
      cudaGraph_t graph = nullptr;
      cudaStreamEndCapture(native_stream(stream), &graph);
      if (graph) cudaGraphDestroy(graph);
      cudaGetLastError();  // an invalidated capture's status is not the caller's error
    });
  }

  void launch_graph(Device device, void* graph, void* stream) override {
    const CudaDeviceGuard guard(device.id());
    XP_CUDA_CHECK(cudaGraphLaunch(static_cast<cudaGraphExec_t>(graph), native_stream(stream)), device.id());
  }

  void destroy_graph(Device device, void* graph) noexcept override {
    release_on_device(device.id(), [&] { cudaGraphExecDestroy(static_cast<cudaGraphExec_t>(graph)); });
  }

  void copy_bytes(void* dst, const void* src, std::size_t bytes, Device stream_device, void* stream) override {
    if (bytes == 0) return;
    const int id = stream_device.id();
    const CudaDeviceGuard guard(id);
    // Unified addressing tells the runtime where each pointer lives, including peer copies.
    XP_CUDA_CHECK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDefault, native_stream(stream)), id);
  }

  // Pinned host memory (cpu_pinned devices, when a GPU is present) or one GPU's, an allocator per
  // device made on first use.
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

 private:
  std::mutex mutex_;
  std::array<std::unique_ptr<CudaDeviceAllocator>, Device::kMaxDeviceId> device_allocators_;
  CudaPinnedAllocator pinned_allocator_;
};

}  // namespace

Runtime* cuda_runtime() noexcept {
  static CudaRuntime runtime;
  return &runtime;
}

}  // namespace xp::detail
