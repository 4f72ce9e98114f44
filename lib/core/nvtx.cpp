// NVTX 3 behind xp::profile_range: one "xparray" domain, ASCII messages. Built without the toolkit's
// NVTX headers, ranges are never enabled and XP_NVTX=1 says so once.
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <string>

#include "xp/profile.hpp"

#if XP_HAVE_NVTX
#include <nvtx3/nvToolsExt.h>
#endif

namespace xp::detail {

namespace {

bool nvtx_requested() {
  const char* value = std::getenv("XP_NVTX");
  return value != nullptr && std::strcmp(value, "1") == 0;
}

bool enable_nvtx() {
  if (!nvtx_requested()) return false;
#if XP_HAVE_NVTX
  return true;
#else
  std::cerr << "xparray: XP_NVTX=1 is ignored: this build of xparray has no NVTX (the CUDA toolkit's "
               "nvtx3 headers were not found)\n";
  return false;
#endif
}

#if XP_HAVE_NVTX
nvtxDomainHandle_t domain() {
  static const nvtxDomainHandle_t handle = nvtxDomainCreateA("xparray");
  return handle;
}
#endif

}  // namespace

const bool nvtx_enabled = enable_nvtx();

void nvtx_push(std::string_view name) noexcept {
#if XP_HAVE_NVTX
  // NVTX takes a NUL-terminated string. Without memory for a copy of the name the range is still
  // pushed (every push has its pop), under a name that says so.
  const char* message = "xparray (name dropped: out of memory)";
  std::string text;
  try {
    text.assign(name);
    message = text.c_str();
  } catch (...) {}
  nvtxEventAttributes_t attributes{};
  attributes.version = NVTX_VERSION;
  attributes.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
  attributes.messageType = NVTX_MESSAGE_TYPE_ASCII;
  attributes.message.ascii = message;
  nvtxDomainRangePushEx(domain(), &attributes);
#else
  (void)name;
#endif
}

void nvtx_pop() noexcept {
#if XP_HAVE_NVTX
  nvtxDomainRangePop(domain());
#endif
}

}  // namespace xp::detail
