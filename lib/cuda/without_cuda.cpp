// What serves GPUs, in a build without CUDA: nothing.
#include "cuda/cuda_raw_modules.hpp"
#include "cuda/cuda_services.hpp"
#include "cuda/cuda_user_kernels.hpp"
#include "xp/error.hpp"
#include "xp/kernels/cuda/scoped_device.hpp"

namespace xp::detail {

Runtime* cuda_runtime() noexcept { return nullptr; }
DeviceKernels* cuda_device_kernels() noexcept { return nullptr; }
DeviceCollectives* cuda_collectives() noexcept { return nullptr; }
KernelCompiler* cuda_kernel_compiler() noexcept { return nullptr; }
bool cuda_has_nccl() noexcept { return false; }

// Kernels compiled against this library by nvcc cannot run on it.
ScopedCudaDevice::ScopedCudaDevice(int id) : previous_(id), changed_(false) {
  throw NotImplementedError("xparray was built without CUDA support: ", gpu(id), " cannot be used");
}
ScopedCudaDevice::~ScopedCudaDevice() = default;

void throw_cuda_failure(int status, const char* call, int) {
  throw NotImplementedError("xparray was built without CUDA support (", call, " returned ", status, ")");
}

const std::array<std::string, 2>& nvrtc_include_options() {
  throw NotImplementedError("xparray was built without CUDA support: no NVRTC");
}
const std::string& nvrtc_identity() { throw NotImplementedError("xparray was built without CUDA support: no NVRTC"); }
std::string cuda_architecture(Device device) {
  throw NotImplementedError("xparray was built without CUDA support: ", device, " cannot be used");
}
std::string compile_cubin(std::string_view, std::string_view, std::string_view) {
  throw NotImplementedError("xparray was built without CUDA support: no NVRTC");
}

RawCompiled compile_raw(std::string_view, std::span<const std::string>, std::span<const std::string>,
                        std::string_view) {
  throw NotImplementedError("xparray was built without CUDA support: no NVRTC");
}

struct RawLibrary::State {};
RawLibrary::RawLibrary(std::string_view) {
  throw NotImplementedError("xparray was built without CUDA support: no CUDA module can be loaded");
}
RawLibrary::~RawLibrary() = default;
void RawLibrary::launch(const std::string&, std::string_view, const Extents&, const Extents&, std::size_t, void**,
                        const Exec&) const {}

}  // namespace xp::detail
