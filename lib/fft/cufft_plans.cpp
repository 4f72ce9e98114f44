// cuFFT's plans for GPUs, per (thread, device) as cuBLAS's handles are, keyed by (kind, precision,
// length, batch): made without a work area (cufftSetAutoAllocation off), which each call takes from the
// device's memory pool on its stream, as CuPy does. Calls run on the stream they are given.
#include <cuda_runtime_api.h>
#include <cufft.h>

#include <compare>
#include <map>
#include <string>
#include <utility>

#include "fft/plan_cache.hpp"
#include "fft/transform.hpp"
#include "xp/error.hpp"
#include "xp/memory_pool.hpp"

namespace xp::fft::detail {

namespace {

const char* result_name(cufftResult result) {
  switch (result) {
    case CUFFT_INVALID_PLAN: return "CUFFT_INVALID_PLAN";
    case CUFFT_ALLOC_FAILED: return "CUFFT_ALLOC_FAILED";
    case CUFFT_INVALID_VALUE: return "CUFFT_INVALID_VALUE";
    case CUFFT_INTERNAL_ERROR: return "CUFFT_INTERNAL_ERROR";
    case CUFFT_EXEC_FAILED: return "CUFFT_EXEC_FAILED";
    case CUFFT_SETUP_FAILED: return "CUFFT_SETUP_FAILED";
    case CUFFT_INVALID_SIZE: return "CUFFT_INVALID_SIZE";
    case CUFFT_NOT_SUPPORTED: return "CUFFT_NOT_SUPPORTED";
    default: return "CUFFT_OTHER";
  }
}

void check_cufft(cufftResult result, const char* call_text, int device) {
  if (result == CUFFT_SUCCESS) [[likely]]
    return;
  const std::string text(call_text);
  throw CudaError(text.substr(0, text.find('(')), static_cast<int>(result), result_name(result), "cuFFT failed",
                  gpu(device).str());
}

void check_cuda(cudaError_t status, const char* call, int device) {
  if (status != cudaSuccess)
    throw CudaError(call, static_cast<int>(status), cudaGetErrorName(status), cudaGetErrorString(status),
                    gpu(device).str());
}

#define XP_CUFFT_CHECK(call, device) check_cufft((call), #call, (device))

// gpu(id) current for cuFFT's calls, the caller's device restored after them.
class CurrentGpu {
 public:
  explicit CurrentGpu(int id) {
    check_cuda(cudaGetDevice(&previous_), "cudaGetDevice", id);
    if (previous_ != id) check_cuda(cudaSetDevice(id), "cudaSetDevice", id);
  }
  ~CurrentGpu() { cudaSetDevice(previous_); }
  CurrentGpu(const CurrentGpu&) = delete;
  CurrentGpu& operator=(const CurrentGpu&) = delete;

 private:
  int previous_ = 0;
};

struct CufftKey {
  Kind kind;
  bool double_precision;
  std::int64_t n, batch;
  auto operator<=>(const CufftKey&) const = default;
};

cufftType type_of(Kind kind, bool double_precision) {
  switch (kind) {
    case Kind::real_forward: return double_precision ? CUFFT_D2Z : CUFFT_R2C;
    case Kind::real_backward: return double_precision ? CUFFT_Z2D : CUFFT_C2R;
    default: return double_precision ? CUFFT_Z2Z : CUFFT_C2C;
  }
}

class CufftPlan {
 public:
  CufftPlan(const Call& call, int device) : device_(device) {
    const CurrentGpu current(device);
    XP_CUFFT_CHECK(cufftCreate(&handle_), device);
    XP_CUFFT_CHECK(cufftSetAutoAllocation(handle_, 0), device);
    long long n = call.n;
    const long long half = call.n / 2 + 1;
    const long long in_row = call.kind == Kind::real_backward ? half : n;
    const long long out_row = call.kind == Kind::real_forward ? half : n;
    XP_CUFFT_CHECK(cufftMakePlanMany64(handle_, 1, &n, nullptr, 1, in_row, nullptr, 1, out_row,
                                       type_of(call.kind, call.double_precision), call.batch, &work_bytes_),
                   device);
  }
  CufftPlan(CufftPlan&& other) noexcept
      : device_(other.device_), handle_(std::exchange(other.handle_, 0)), work_bytes_(other.work_bytes_) {}
  CufftPlan(const CufftPlan&) = delete;
  CufftPlan& operator=(const CufftPlan&) = delete;
  CufftPlan& operator=(CufftPlan&&) = delete;
  ~CufftPlan() {
    if (handle_) cufftDestroy(handle_);
  }

  void run(const Call& call, const Stream& stream) const {
    const CurrentGpu current(device_);
    XP_CUFFT_CHECK(cufftSetStream(handle_, static_cast<cudaStream_t>(stream.native_handle())), device_);
    // The pool hands the block to the next call on this stream only after this one's work is queued.
    const Allocation work = get_default_memory_pool(gpu(device_)).malloc(work_bytes_, stream);
    XP_CUFFT_CHECK(cufftSetWorkArea(handle_, work.get()), device_);
    execute(call);
  }

 private:
  void execute(const Call& call) const {
    void* in = const_cast<void*>(call.input);
    void* out = call.output;
    const int direction = call.kind == Kind::backward ? CUFFT_INVERSE : CUFFT_FORWARD;
    switch (type_of(call.kind, call.double_precision)) {
      case CUFFT_C2C:
        XP_CUFFT_CHECK(
            cufftExecC2C(handle_, static_cast<cufftComplex*>(in), static_cast<cufftComplex*>(out), direction), device_);
        break;
      case CUFFT_Z2Z:
        XP_CUFFT_CHECK(cufftExecZ2Z(handle_, static_cast<cufftDoubleComplex*>(in),
                                    static_cast<cufftDoubleComplex*>(out), direction),
                       device_);
        break;
      case CUFFT_R2C:
        XP_CUFFT_CHECK(cufftExecR2C(handle_, static_cast<cufftReal*>(in), static_cast<cufftComplex*>(out)), device_);
        break;
      case CUFFT_D2Z:
        XP_CUFFT_CHECK(cufftExecD2Z(handle_, static_cast<cufftDoubleReal*>(in), static_cast<cufftDoubleComplex*>(out)),
                       device_);
        break;
      case CUFFT_C2R:
        XP_CUFFT_CHECK(cufftExecC2R(handle_, static_cast<cufftComplex*>(in), static_cast<cufftReal*>(out)), device_);
        break;
      default:
        XP_CUFFT_CHECK(cufftExecZ2D(handle_, static_cast<cufftDoubleComplex*>(in), static_cast<cufftDoubleReal*>(out)),
                       device_);
    }
  }

  int device_;
  cufftHandle handle_ = 0;
  std::size_t work_bytes_ = 0;
};

using GpuPlans = std::map<int, PlanCache<CufftKey, CufftPlan>>;

GpuPlans& thread_plans() {
  thread_local GpuPlans plans;
  return plans;
}

}  // namespace

void run_on_gpu(const Call& call, const Stream& stream) {
  const int device = stream.device().id();
  const CufftKey key{call.kind, call.double_precision, call.n, call.batch};
  const auto plan = thread_plans()[device].get(key, [&] { return CufftPlan(call, device); });
  plan->run(call, stream);
}

std::size_t gpu_plans(Device device) { return thread_plans()[device.id()].size(); }

void clear_gpu_plans(Device device) { thread_plans()[device.id()].clear(); }

}  // namespace xp::fft::detail
