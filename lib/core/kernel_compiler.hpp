#pragma once
// Run-time kernels for a device type: the dialect to generate, the compiler's identity for a device
// (part of the disk cache's key), the compiled payload of a source (CompileError with the log), and
// a payload loaded as a module. CPU: lib/cpu/host_compiler.cpp; CUDA: lib/cuda/cuda_user_kernels.cpp
// (NVRTC). Found through core/device_registry.hpp.
#include <memory>
#include <string>
#include <string_view>

#include "core/compiled_module.hpp"
#include "xp/device.hpp"

namespace xp::detail {

class KernelCompiler {
 public:
  virtual ~KernelCompiler() = default;

  virtual KernelTarget kernel_target() const noexcept = 0;
  virtual std::string compiler_identity(Device device) = 0;
  virtual std::string compile(const std::string& name, const std::string& source, KernelKind kind, Device device) = 0;
  virtual std::unique_ptr<CompiledModule> load_module(std::string_view payload, const std::string& name,
                                                      KernelKind kind, Device device) = 0;
};

}  // namespace xp::detail
