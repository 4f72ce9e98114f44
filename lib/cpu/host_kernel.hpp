#pragma once
// Run-time kernels on CPUs: a compiled shared object loaded as a CompiledModule, its loop cut
// into chunks on the CPU's threads.
#include <memory>
#include <string>
#include <string_view>

#include "core/compiled_module.hpp"

namespace xp::detail {

// The module of `shared_object`, whose entry points are named after `name` (kernel_source.hpp).
std::unique_ptr<CompiledModule> load_host_kernel(std::string_view shared_object, const std::string& name,
                                                 KernelKind kind);

}  // namespace xp::detail
