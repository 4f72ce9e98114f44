#pragma once
// The host side of run-time kernels: the C++ compiler found at configure time (XP_CXX overrides it,
// e.g. XP_CXX="ccache g++"), turning a generated source into a shared object, and loading one.
#include <cstddef>
#include <string>
#include <string_view>

#include "core/compiled_module.hpp"

namespace xp::detail {

// The command, its version line and the flags: part of every host kernel's cache key.
const std::string& host_compiler_identity();

// The bytes of a shared object built from `source` (at -O3, reductions at -O2); CompileError with
// the log and the source.
std::string compile_host_source(std::string_view kernel, std::string_view source, KernelKind kind);

// Sources compile_host_source has compiled in this process (the disk cache's hits are not counted).
std::size_t host_compilations() noexcept;

// A shared object loaded from its bytes (never from a path another process may rewrite).
class HostModule {
 public:
  explicit HostModule(std::string_view shared_object);
  ~HostModule();
  HostModule(const HostModule&) = delete;
  HostModule& operator=(const HostModule&) = delete;

  // The address of an extern "C" function; Error when it is missing.
  void* symbol(const std::string& name) const;

 private:
  void* handle_ = nullptr;
  int fd_ = -1;
};

}  // namespace xp::detail
