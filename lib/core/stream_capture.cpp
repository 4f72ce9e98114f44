#include "core/stream_capture.hpp"

#include "xp/error.hpp"

namespace xp::detail {

namespace {
thread_local CaptureRecording* recording = nullptr;
}  // namespace

GraphMemory::GraphMemory(RawAllocator& device_memory, Device device) : raw_(device_memory), pool_(raw_, device) {}

GraphMemory::~GraphMemory() { raw_.stop_retaining(); }

void GraphMemory::Retained::deallocate(void* ptr, std::size_t bytes) noexcept {
  if (!retaining_) {
    upstream_.deallocate(ptr, bytes);
    return;
  }
  try {
    released_.emplace_back(ptr, bytes);
  } catch (...) {
    // No host memory to remember it: the block stays allocated, since a replay may still write into it.
  }
}

GraphMemory::Retained::~Retained() {
  for (const auto& [ptr, bytes] : released_) upstream_.deallocate(ptr, bytes);
}

CaptureRecording* capture_under_way() noexcept { return recording; }

CaptureScope::CaptureScope(CaptureRecording& made) noexcept : outer_(recording) { recording = &made; }

CaptureScope::~CaptureScope() { recording = outer_; }

void check_no_wait_in_capture(Device device, std::string_view operation) {
  const CaptureRecording* const under_way = recording;
  if (!under_way || !under_way->forbids_wait_for(device)) return;
  const Device captured = under_way->stream.device();
  throw ValueError(operation, " makes the host wait for ", device, ", which cannot happen while xp::capture records a ",
                   "stream of ", captured,
                   captured.is_gpu() ? " (CUDA would end the capture)" : " (as on GPUs, where CUDA would end it)",
                   ": do it before the capture or after a launch");
}

}  // namespace xp::detail
