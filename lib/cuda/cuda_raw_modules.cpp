// Raw CUDA modules: NVRTC with the user's options (and the toolkit's include folders, as for the
// library's own kernels), lowered names of the name expressions, and launches of the user's shape.
#include "cuda/cuda_raw_modules.hpp"

#include <cuda_runtime.h>
#include <nvrtc.h>

#include <atomic>

#include "core/compile_error.hpp"
#include "cuda/cuda_check.hpp"
#include "cuda/cuda_device_guard.hpp"
#include "cuda/cuda_user_kernels.hpp"
#include "xp/error.hpp"

namespace xp::detail {

namespace {

void check_raw_nvrtc(nvrtcResult status, const char* call) {
  XP_CHECK(status == NVRTC_SUCCESS, CompileError, call, " failed: ", nvrtcGetErrorString(status));
}

std::string program_log(nvrtcProgram program) {
  std::size_t size = 0;
  check_raw_nvrtc(nvrtcGetProgramLogSize(program, &size), "nvrtcGetProgramLogSize");
  std::string log(size, '\0');
  check_raw_nvrtc(nvrtcGetProgramLog(program, log.data()), "nvrtcGetProgramLog");
  return log.substr(0, log.find('\0'));
}

}  // namespace

RawCompiled compile_raw(std::string_view source, std::span<const std::string> options,
                        std::span<const std::string> name_expressions, std::string_view architecture) {
  const std::string text(source);
  nvrtcProgram program = nullptr;
  check_raw_nvrtc(nvrtcCreateProgram(&program, text.c_str(), "raw_module.cu", 0, nullptr, nullptr),
                  "nvrtcCreateProgram");
  struct Destroy {
    nvrtcProgram* p;
    ~Destroy() { nvrtcDestroyProgram(p); }
  } destroy{&program};
  for (const std::string& expression : name_expressions)
    check_raw_nvrtc(nvrtcAddNameExpression(program, expression.c_str()), "nvrtcAddNameExpression");
  const std::string arch = "--gpu-architecture=" + std::string(architecture);
  std::vector<const char*> all{arch.c_str()};
  for (const std::string& option : nvrtc_include_options()) all.push_back(option.c_str());
  for (const std::string& option : options) all.push_back(option.c_str());
  if (nvrtcCompileProgram(program, static_cast<int>(all.size()), all.data()) != NVRTC_SUCCESS)
    throw_compile_error("raw module", "NVRTC " + arch, program_log(program), source);
  RawCompiled compiled;
  for (const std::string& expression : name_expressions) {
    const char* lowered = nullptr;
    check_raw_nvrtc(nvrtcGetLoweredName(program, expression.c_str(), &lowered), "nvrtcGetLoweredName");
    compiled.lowered.emplace_back(expression, lowered);
  }
  std::size_t size = 0;
  check_raw_nvrtc(nvrtcGetCUBINSize(program, &size), "nvrtcGetCUBINSize");
  compiled.cubin.assign(size, '\0');
  check_raw_nvrtc(nvrtcGetCUBIN(program, compiled.cubin.data()), "nvrtcGetCUBIN");
  return compiled;
}

struct RawLibrary::State {
  cudaLibrary_t library = nullptr;
  std::atomic<std::uint64_t> launched_on{0};  // bit i: queued on gpu(i) at least once
};

RawLibrary::RawLibrary(std::string_view image) : state_(std::make_unique<State>()) {
  // The runtime reads a PTX image as a C string.
  const std::string terminated(image);
  XP_CUDA_CHECK(cudaLibraryLoadData(&state_->library, terminated.c_str(), nullptr, nullptr, 0, nullptr, nullptr, 0),
                -1);
}

// As CudaModule's: launches still queued finish before the image is unloaded.
RawLibrary::~RawLibrary() {
  const std::uint64_t devices = state_->launched_on.load(std::memory_order_acquire);
  for (int id = 0; id < Device::kMaxDeviceId; ++id)
    if (devices >> id & 1) release_on_device(id, [] { cudaDeviceSynchronize(); });
  cudaLibraryUnload(state_->library);
}

void RawLibrary::launch(const std::string& name, std::string_view shown, const Extents& grid, const Extents& block,
                        std::size_t shared_bytes, void** args, const Exec& exec) const {
  const int device = exec.device.id();
  const CudaDeviceGuard guard(device);
  cudaKernel_t kernel = nullptr;
  if (cudaLibraryGetKernel(&kernel, state_->library, name.c_str()) != cudaSuccess) {
    (void)cudaGetLastError();
    throw ValueError("RawKernel: the module has no kernel '", shown, "' (an extern \"C\" name or a name expression)");
  }
  state_->launched_on.fetch_or(std::uint64_t{1} << device, std::memory_order_acq_rel);
  XP_CUDA_CHECK(cudaLaunchKernel(reinterpret_cast<const void*>(kernel), dim3(grid[0], grid[1], grid[2]),
                                 dim3(block[0], block[1], block[2]), args, shared_bytes,
                                 static_cast<cudaStream_t>(exec.stream.native_handle())),
                device);
}

}  // namespace xp::detail
