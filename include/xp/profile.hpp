#pragma once
/// \file
/// NVTX ranges for Nsight Systems (CuPy's cupyx.profiler.time_range, c10's RECORD_FUNCTION).
/// With XP_NVTX=1 in the environment when the library loads, every library call that launches work on
/// a device (elementwise operations, reductions, run-time kernels, matmul, copies and transfers, fills,
/// random numbers, collectives) is an NVTX range named after the operation ("add", "sum", "matmul",
/// "to_gpu", a kernel's name), in the NVTX domain "xparray"; xp::profile_range adds users' own ranges
/// to the same domain. Otherwise a range costs one load and one branch. NVTX 3 is header-only (from the
/// CUDA toolkit, inside the library only) and does nothing until a tool such as nsys attaches to it.
#include <string_view>

#include "xp/export.hpp"

namespace xp {

/// \cond DETAIL
namespace detail {
XP_API extern const bool nvtx_enabled;  ///< XP_NVTX=1 when the library loaded, and NVTX was built in
XP_API void nvtx_push(std::string_view name) noexcept;
XP_API void nvtx_pop() noexcept;
}  // namespace detail
/// \endcond

/// Whether ranges are recorded in this process.
inline bool profiling_enabled() noexcept { return detail::nvtx_enabled; }

/// RAII: an NVTX range from construction to destruction, on the calling thread.
class XP_API profile_range {
 public:
  /// Opens a range called `name` (when XP_NVTX=1).
  explicit profile_range(std::string_view name) noexcept : active_(detail::nvtx_enabled) {
    if (active_) [[unlikely]]
      detail::nvtx_push(name);
  }
  ~profile_range() {
    if (active_) [[unlikely]]
      detail::nvtx_pop();
  }
  profile_range(const profile_range&) = delete;
  profile_range& operator=(const profile_range&) = delete;

 private:
  bool active_;
};

}  // namespace xp
