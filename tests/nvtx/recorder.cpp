// An NVTX injection library (what Nsight Systems is to NVTX): NVTX_INJECTION64_PATH names it, NVTX loads
// it at the first NVTX call and it takes over the domain functions, recording every push ("domain:name")
// and pop. tests/nvtx/nvtx_ranges.cpp reads the record through xp_nvtx_events.
#include <nvtx3/nvToolsExt.h>

#include <cstdio>
#include <deque>
#include <mutex>
#include <string>
#include <vector>

namespace {

std::mutex mutex;
std::deque<std::string> domains;  // a domain handle points at its name
std::vector<std::string> events;

nvtxDomainHandle_t create_domain(const char* name) {
  const std::lock_guard lock(mutex);
  return reinterpret_cast<nvtxDomainHandle_t>(&domains.emplace_back(name));
}

int push(nvtxDomainHandle_t domain, const nvtxEventAttributes_t* attributes) {
  const std::lock_guard lock(mutex);
  const std::string name = attributes && attributes->messageType == NVTX_MESSAGE_TYPE_ASCII ? attributes->message.ascii
                                                                                            : "(no ASCII message)";
  events.push_back((domain ? *reinterpret_cast<const std::string*>(domain) : std::string("(none)")) + ":" + name);
  return static_cast<int>(events.size());
}

int pop(nvtxDomainHandle_t) {
  const std::lock_guard lock(mutex);
  events.emplace_back("pop");
  return 0;
}

template <class F>
NvtxFunctionPointer function(F f) {
  return reinterpret_cast<NvtxFunctionPointer>(f);
}

}  // namespace

extern "C" {

__attribute__((visibility("default"))) int InitializeInjectionNvtx2(NvtxGetExportTableFunc_t get_table) {
  const auto* callbacks = static_cast<const NvtxExportTableCallbacks*>(get_table(NVTX_ETID_CALLBACKS));
  NvtxFunctionTable table = nullptr;
  unsigned size = 0;
  if (!callbacks || !callbacks->GetModuleFunctionTable(NVTX_CB_MODULE_CORE2, &table, &size) ||
      size <= NVTX_CBID_CORE2_DomainCreateA)
    return 0;
  *table[NVTX_CBID_CORE2_DomainCreateA] = function(&create_domain);
  *table[NVTX_CBID_CORE2_DomainRangePushEx] = function(&push);
  *table[NVTX_CBID_CORE2_DomainRangePop] = function(&pop);
  return 1;
}

// The events so far joined by ';' into out (size bytes); returns how many there are.
__attribute__((visibility("default"))) int xp_nvtx_events(char* out, int size) {
  const std::lock_guard lock(mutex);
  std::string joined;
  for (const std::string& event : events) joined += (joined.empty() ? "" : ";") + event;
  std::snprintf(out, static_cast<std::size_t>(size), "%s", joined.c_str());
  return static_cast<int>(events.size());
}

__attribute__((visibility("default"))) void xp_nvtx_clear() {
  const std::lock_guard lock(mutex);
  events.clear();
}

}  // extern "C"
