#pragma once
// The kernel compiler of cpu devices: generated C++ built by the host compiler (host_compiler.hpp)
// into a shared object, loaded as a module (host_kernel.hpp).
#include "core/kernel_compiler.hpp"

namespace xp::detail {

KernelCompiler& host_kernel_compiler();

}  // namespace xp::detail
