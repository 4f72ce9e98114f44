// The kernel compiler of GPUs: NVRTC for the device's architecture (cuda_user_kernels.cpp), cubins
// loaded as modules.
#include "cuda/cuda_services.hpp"
#include "cuda/cuda_user_kernels.hpp"

namespace xp::detail {

namespace {

class CudaKernelCompiler final : public KernelCompiler {
 public:
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
};

}  // namespace

KernelCompiler* cuda_kernel_compiler() noexcept {
  static CudaKernelCompiler compiler;
  return &compiler;
}

}  // namespace xp::detail
