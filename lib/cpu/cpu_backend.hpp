#pragma once
// The CPU backend: host memory, memcpy, and the loop drivers of kernels/xp/kernels/cpu/. Its streams run
// work in order on the calling thread, so everything it is given is done when the call returns.
#include "core/backend.hpp"

namespace xp::detail {

Backend& cpu_backend();

}  // namespace xp::detail
