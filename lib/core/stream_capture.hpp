#pragma once
// The calling thread's capture under way (xp::capture, include/xp/graph.hpp): which stream it records,
// the memory of the graph it makes, and the arrays it must keep alive. The layers above ask it where a
// new array's memory comes from (api's new_array), what an access gate may do (api's Buffer), and
// whether a host wait is allowed (every call that makes the host wait for a device).
#include <memory>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "xp/detail/exec.hpp"
#include "xp/memory_pool.hpp"

namespace xp::detail {

// The memory of one graph: a pool whose raw blocks go back to the device only when the pool does, after
// the graph and every array made from it are gone, since a replay writes into blocks the pool has freed.
class GraphMemory {
 public:
  GraphMemory(RawAllocator& device_memory, Device device);
  ~GraphMemory();  // the graph and every array of its memory are gone: the pool's blocks go back
  GraphMemory(const GraphMemory&) = delete;
  GraphMemory& operator=(const GraphMemory&) = delete;
  MemoryPool& pool() noexcept { return pool_; }

 private:
  class Retained final : public RawAllocator {
   public:
    explicit Retained(RawAllocator& upstream) noexcept : upstream_(upstream) {}
    ~Retained() override;
    void* allocate(std::size_t bytes) override { return upstream_.allocate(bytes); }
    void deallocate(void* ptr, std::size_t bytes) noexcept override;
    void stop_retaining() noexcept { retaining_ = false; }

   private:
    RawAllocator& upstream_;
    bool retaining_ = true;
    std::vector<std::pair<void*, std::size_t>> released_;
  };
  Retained raw_;  // declared first: the pool returns its blocks into it as it goes
  MemoryPool pool_;
};

// How the layer that owns arrays' memory orders a launch's use of one block of it (api's access gate).
using LaunchGate = void (*)(void* memory, const Exec& launch);

// What one thread's capture records. `memory` is null where the function is replayed instead (CPUs).
struct CaptureRecording {
  Stream stream;
  std::shared_ptr<GraphMemory> memory;
  // Memory made before the capture and used by it, which each replay reads or writes again.
  std::unordered_map<const void*, std::shared_ptr<void>> kept;
  // Memory the capture made (the graph's own), ordered at each launch while an array holds it.
  std::vector<std::weak_ptr<void>> made;
  LaunchGate gate = nullptr;  // set by whoever adds to kept or made

  // Work queued on `exec` is recorded by this capture.
  bool records(const Exec& exec) const noexcept { return exec.stream == stream; }
  // A host wait for `device` would stop the capture: a device of the captured kind.
  bool forbids_wait_for(Device device) const noexcept { return device.type() == stream.device().type(); }
};

// The calling thread's capture, or null.
CaptureRecording* capture_under_way() noexcept;

// Makes `recording` the calling thread's capture until the scope ends.
class CaptureScope {
 public:
  explicit CaptureScope(CaptureRecording& recording) noexcept;
  ~CaptureScope();
  CaptureScope(const CaptureScope&) = delete;
  CaptureScope& operator=(const CaptureScope&) = delete;

 private:
  CaptureRecording* outer_;
};

// ValueError naming `operation` when it would make the host wait for `device` while the calling thread
// captures a stream of that kind of device (the capture would fail, and the graph with it).
void check_no_wait_in_capture(Device device, std::string_view operation);

}  // namespace xp::detail
