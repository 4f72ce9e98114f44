#pragma once
// Run-time kernels on GPUs, declared without CUDA headers: NVRTC compiles generated sources to
// CUBIN for a device's architecture; the CUDA runtime's library API loads them (no driver library
// is linked) and launches them on a stream. In a build without CUDA (lib/cuda/without_cuda.cpp)
// these throw NotImplementedError.
#include <array>
#include <memory>
#include <string>
#include <string_view>

#include "core/compiled_module.hpp"
#include "xp/device.hpp"

namespace xp::detail {

// The toolkit's include folders NVRTC compiles against ("-I..." options): those of the toolkit this
// library was built with, or of $CUDA_PATH where it is set.
const std::array<std::string, 2>& nvrtc_include_options();

// NVRTC's version and the include directories it compiles against: part of every GPU kernel's key.
const std::string& nvrtc_identity();

// "sm_80" for a compute capability 8.0 device.
std::string cuda_architecture(Device device);

// CUBIN of `source` for `architecture` ("sm_80"); CompileError with NVRTC's log and the source.
// Needs no GPU.
std::string compile_cubin(std::string_view kernel, std::string_view source, std::string_view architecture);

// A loaded CUBIN and its kernel `name`, launched on the stream it is given.
class CudaModule final : public CompiledModule {
 public:
  CudaModule(std::string_view cubin, const std::string& name, KernelKind kind);
  ~CudaModule() override;
  CudaModule(const CudaModule&) = delete;
  CudaModule& operator=(const CudaModule&) = delete;

  // Elementwise: enough grid-stride blocks of launch.block threads for launch.work positions to
  // fill the device (the occupancy is asked once per device). Reductions: a block per output.
  void launch(const ModuleLaunch& launch, const Exec& exec) const override;

 private:
  struct State;
  std::unique_ptr<State> state_;
  KernelKind kind_;
};

}  // namespace xp::detail
