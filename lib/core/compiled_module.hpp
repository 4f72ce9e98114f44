#pragma once
// A run-time kernel once compiled and loaded for a device type: a shared object on CPUs
// (lib/cpu/host_kernel.cpp), a CUBIN on GPUs (lib/cuda/cuda_user_kernels.cpp). Both launch through
// this one interface; lib/api decides what to launch, the module how.
#include <cstdint>

#include "xp/detail/exec.hpp"

namespace xp::detail {

// The dialect a backend's run-time kernels are generated in (lib/core/kernel_source.hpp).
enum class KernelTarget { cpu, cuda };
// What a generated source defines.
enum class KernelKind { elementwise, reduction };

struct ModuleLaunch {
  void* const* args;  // the kernel's parameters, as KernelArguments lays them out
  // Elementwise: the positions of the loop. Reductions: the outputs.
  std::int64_t work = 0;
  std::int64_t reduced = 0;  // reductions: the elements folded into each output
  int block = 128;  // threads per block on GPUs
};

class CompiledModule {
 public:
  virtual ~CompiledModule() = default;
  // Queues the kernel on exec.stream (exec.device is of the module's device type).
  virtual void launch(const ModuleLaunch& launch, const Exec& exec) const = 0;
};

}  // namespace xp::detail
