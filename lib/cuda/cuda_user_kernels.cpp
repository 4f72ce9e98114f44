#include "cuda/cuda_user_kernels.hpp"

#include <cuda_runtime.h>
#include <nvrtc.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <vector>

#include "core/compile_error.hpp"
#include "cuda/cuda_check.hpp"
#include "cuda/cuda_device_guard.hpp"
#include "cuda/cuda_runtime_info.hpp"
#include "xp/error.hpp"

namespace xp::detail {

namespace {

void check_nvrtc(nvrtcResult status, const char* call) {
  XP_CHECK(status == NVRTC_SUCCESS, CompileError, call, " failed: ", nvrtcGetErrorString(status));
}

}  // namespace

// The toolkit's headers (CUB for reductions): those of the toolkit this library was built with, or of
// $CUDA_PATH where it is set (as CuPy reads it), for a build carried to a machine whose toolkit lies elsewhere.
const std::array<std::string, 2>& nvrtc_include_options() {
  static const std::array<std::string, 2> options = [] {
    const char* root = std::getenv("CUDA_PATH");
    if (!root || !*root) return std::array<std::string, 2>{"-I" XP_CCCL_INCLUDE_DIR, "-I" XP_CUDA_INCLUDE_DIR};
    const std::string include = std::string(root) + "/include";
    return std::array<std::string, 2>{"-I" + include + "/cccl", "-I" + include};
  }();
  return options;
}

const std::string& nvrtc_identity() {
  static const std::string identity = [] {
    int major = 0, minor = 0;
    check_nvrtc(nvrtcVersion(&major, &minor), "nvrtcVersion");
    std::string id = "nvrtc " + std::to_string(major) + "." + std::to_string(minor) + " | -std=c++17 -default-device";
    for (const std::string& option : nvrtc_include_options()) id += " " + option;
    return id;
  }();
  return identity;
}

std::string cuda_architecture(Device device) {
  int major = 0, minor = 0;
  XP_CUDA_CHECK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device.id()), device.id());
  XP_CUDA_CHECK(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device.id()), device.id());
  return "sm_" + std::to_string(major) + std::to_string(minor);
}

std::string compile_cubin(std::string_view kernel, std::string_view source, std::string_view architecture) {
  const std::string text(source), name(kernel);
  nvrtcProgram program = nullptr;
  check_nvrtc(nvrtcCreateProgram(&program, text.c_str(), (name + ".cu").c_str(), 0, nullptr, nullptr),
              "nvrtcCreateProgram");
  struct Destroy {
    nvrtcProgram* p;
    ~Destroy() { nvrtcDestroyProgram(p); }
  } destroy{&program};
  const std::string arch = "--gpu-architecture=" + std::string(architecture);
  // --pch: NVRTC precompiles the leading includes (CUB) once per process and reuses them.
  // -default-device: the lambdas a kernel passes to the prelude's loop skeletons are device code.
  std::vector<const char*> options{arch.c_str(), "-std=c++17", "-default-device", "--pch"};
  for (const std::string& option : nvrtc_include_options()) options.push_back(option.c_str());
  const nvrtcResult status = nvrtcCompileProgram(program, static_cast<int>(options.size()), options.data());
  std::size_t log_size = 0;
  check_nvrtc(nvrtcGetProgramLogSize(program, &log_size), "nvrtcGetProgramLogSize");
  std::string log(log_size, '\0');
  check_nvrtc(nvrtcGetProgramLog(program, log.data()), "nvrtcGetProgramLog");
  log.resize(log.find('\0') == std::string::npos ? log.size() : log.find('\0'));  // NVRTC counts its terminator
  if (status != NVRTC_SUCCESS) throw_compile_error(kernel, "NVRTC " + arch, log, source);
  std::size_t size = 0;
  check_nvrtc(nvrtcGetCUBINSize(program, &size), "nvrtcGetCUBINSize");
  std::string cubin(size, '\0');
  check_nvrtc(nvrtcGetCUBIN(program, cubin.data()), "nvrtcGetCUBIN");
  return cubin;
}

struct CudaModule::State {
  cudaLibrary_t library = nullptr;
  cudaKernel_t kernel = nullptr;
  std::array<std::atomic<int>, Device::kMaxDeviceId> blocks_per_sm{};  // 0: not asked yet
  std::atomic<std::uint64_t> launched_on{0};  // bit i: queued on gpu(i) at least once
};

CudaModule::CudaModule(std::string_view cubin, const std::string& name, KernelKind kind)
    : state_(std::make_unique<State>()), kind_(kind) {
  XP_CUDA_CHECK(cudaLibraryLoadData(&state_->library, cubin.data(), nullptr, nullptr, 0, nullptr, nullptr, 0), -1);
  const cudaError_t status = cudaLibraryGetKernel(&state_->kernel, state_->library, name.c_str());
  if (status != cudaSuccess) {
    cudaLibraryUnload(state_->library);
    XP_CUDA_CHECK(status, -1);
  }
}

// Launches may still be queued when the last owner lets go (a kernel object destroyed right after its
// call): unloading under them is undefined, so each device the module ran on finishes its work first.
CudaModule::~CudaModule() {
  const std::uint64_t devices = state_->launched_on.load(std::memory_order_acquire);
  for (int id = 0; id < Device::kMaxDeviceId; ++id) {
    if (devices >> id & 1) release_on_device(id, [] { cudaDeviceSynchronize(); });
  }
  cudaLibraryUnload(state_->library);
}

void CudaModule::launch(const ModuleLaunch& launch, const Exec& exec) const {
  const int device = exec.device.id();
  const CudaDeviceGuard guard(device);
  const void* function = reinterpret_cast<const void*>(state_->kernel);
  const int threads = launch.block;
  unsigned blocks = 0;
  if (kind_ == KernelKind::reduction) {
    blocks = static_cast<unsigned>(std::min<std::int64_t>(launch.work, 1 << 20));
  } else {
    int per_sm = state_->blocks_per_sm[device].load(std::memory_order_relaxed);
    if (per_sm == 0) {
      XP_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, function, threads, 0), device);
      per_sm = std::max(per_sm, 1);
      state_->blocks_per_sm[device].store(per_sm, std::memory_order_relaxed);
    }
    const int sms = cuda_multiprocessor_count(device);
    const long long wanted = (launch.work + threads - 1) / threads;
    blocks = static_cast<unsigned>(std::clamp<long long>(wanted, 1, static_cast<long long>(per_sm) * sms));
  }
  const std::uint64_t bit = std::uint64_t{1} << device;
  if (!(state_->launched_on.load(std::memory_order_relaxed) & bit)) state_->launched_on.fetch_or(bit);
  XP_CUDA_CHECK(
      cudaLaunchKernel(function, dim3(blocks), dim3(static_cast<unsigned>(threads)), const_cast<void**>(launch.args), 0,
                       static_cast<cudaStream_t>(exec.stream.native_handle())),
      device);
}

}  // namespace xp::detail
