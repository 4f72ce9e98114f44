#pragma once
// The runtime of host devices (cpu and cpu_pinned): one device switch that does nothing, streams
// that run their work on the calling thread as it is queued, events that take the time, and aligned
// host memory.
#include "core/runtime.hpp"

namespace xp::detail {

Runtime& cpu_runtime();

}  // namespace xp::detail
