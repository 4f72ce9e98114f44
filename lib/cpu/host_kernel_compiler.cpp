#include "cpu/host_kernel_compiler.hpp"

#include "cpu/host_compiler.hpp"
#include "cpu/host_kernel.hpp"

namespace xp::detail {

namespace {

class HostKernelCompiler final : public KernelCompiler {
 public:
  KernelTarget kernel_target() const noexcept override { return KernelTarget::cpu; }
  std::string compiler_identity(Device) override { return "host\n" + host_compiler_identity(); }
  std::string compile(const std::string& name, const std::string& source, KernelKind kind, Device) override {
    return compile_host_source(name, source, kind);
  }
  std::unique_ptr<CompiledModule> load_module(std::string_view payload, const std::string& name, KernelKind kind,
                                              Device) override {
    return load_host_kernel(payload, name, kind);
  }
};

}  // namespace

KernelCompiler& host_kernel_compiler() {
  static HostKernelCompiler compiler;
  return compiler;
}

}  // namespace xp::detail
