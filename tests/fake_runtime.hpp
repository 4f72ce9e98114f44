#pragma once
// A runtime that logs what is asked of it (c10's FakeGuardImpl, grown to streams and events), so
// that the ordering rules above the runtimes are checked on machines without a GPU. Installed for
// cpu devices, it plays an asynchronous device: its streams' work stays "in flight" and its events
// pass only when the test says so. The work itself still runs on the host, so results are real.
#include <cstring>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "core/device_registry.hpp"
#include "cpu/cpu_runtime.hpp"
#include "xp/memory_pool.hpp"

namespace xp::testing {

class FakeRuntime final : public detail::Runtime {
 public:
  explicit FakeRuntime(bool asynchronous = true) : Runtime(/*host_synchronous=*/!asynchronous) {}
  ~FakeRuntime() override {
    for (auto& [handle, name] : events_) delete static_cast<char*>(handle);
  }

  int current_device() const override { return 0; }
  void set_device(int) const override {}
  void restore_device(int) const noexcept override {}
  int device_count() const noexcept override { return Device::kMaxDeviceId; }
  void synchronize_device(Device device) override { log("synchronize_device ", device.str()); }

  void* create_stream(Device, const StreamOptions&) override {
    const std::lock_guard lock(mutex_);
    void* handle = new char;
    stream_names_[handle] = "s" + std::to_string(++streams_made_);
    return handle;
  }
  void destroy_stream(Device, void* stream) noexcept override {
    const std::lock_guard lock(mutex_);
    stream_names_.erase(stream);
    delete static_cast<char*>(stream);
  }
  void synchronize_stream(Device, void* stream) override { log("synchronize_stream ", name_of(stream)); }
  std::pair<int, int> stream_priorities(Device) override { return {0, -2}; }
  int stream_priority(Device, void*) override { return 0; }
  void check_stream(Device, void*) override {}
  // Runs at once (the work is the host's), logged as queued.
  void launch_host_func(Device, void* stream, void (*fn)(void*), void* data) override {
    log("host function on ", name_of(stream));
    fn(data);
  }
  bool query_stream(Device, void*) override { return true; }

  void* create_event(Device, const EventOptions&) override {
    const std::lock_guard lock(mutex_);
    void* handle = new char(0);
    events_[handle] = "e" + std::to_string(++events_made_);
    return handle;
  }
  void destroy_event(Device, void*) noexcept override {}  // events live as long as the runtime
  void record_event(void* event, Device, void* stream) override {
    const std::lock_guard lock(mutex_);
    *static_cast<char*>(event) = 0;  // pending until pass_events()
    log_locked("record ", events_[event], " on ", stream_name_locked(stream));
  }
  void block(void* event, Device, void* stream) override {
    const std::lock_guard lock(mutex_);
    log_locked("block ", stream_name_locked(stream), " on ", events_[event]);
  }
  bool query_event(Device, void* event) override { return *static_cast<char*>(event) != 0; }
  void synchronize_event(Device, void* event) override {
    const std::lock_guard lock(mutex_);
    *static_cast<char*>(event) = 1;
    log_locked("synchronize ", events_[event]);
  }
  float elapsed_ms(Device, void*, void*) override { return 0; }

  // The work of a capture still runs on the host as it is queued; the graph is a name in the log.
  void begin_capture(Device, void* stream) override { log("begin capture on ", name_of(stream)); }
  void* end_capture(Device, void* stream) override {
    const std::lock_guard lock(mutex_);
    void* graph = new char;
    graph_names_[graph] = "g" + std::to_string(++graphs_made_);
    log_locked("end capture on ", stream_name_locked(stream), " as ", graph_names_[graph]);
    return graph;
  }
  void abandon_capture(Device, void* stream) noexcept override { log("abandon capture on ", name_of(stream)); }
  void launch_graph(Device, void* graph, void* stream) override {
    const std::lock_guard lock(mutex_);
    log_locked("launch ", graph_names_[graph], " on ", stream_name_locked(stream));
  }
  void destroy_graph(Device, void* graph) noexcept override {
    const std::lock_guard lock(mutex_);
    log_locked("destroy ", graph_names_[graph]);
    graph_names_.erase(graph);
    delete static_cast<char*>(graph);
  }

  // Memory is the host's: the work runs on the host.
  RawAllocator& raw_allocator(Device device) override { return detail::cpu_runtime().raw_allocator(device); }
  MemoryInfo memory_info(Device device) override { return detail::cpu_runtime().memory_info(device); }

  void copy_bytes(void* dst, const void* src, std::size_t bytes, Device, void* stream) override {
    if (bytes) std::memcpy(dst, src, bytes);
    log("copy ", bytes, " bytes on ", name_of(stream));
  }

  // Every event recorded so far has passed.
  void pass_events() {
    const std::lock_guard lock(mutex_);
    for (auto& [handle, name] : events_) *static_cast<char*>(handle) = 1;
  }
  std::vector<std::string> take_log() {
    const std::lock_guard lock(mutex_);
    return std::exchange(log_, {});
  }
  std::string name_of(void* stream) {
    const std::lock_guard lock(mutex_);
    return stream_name_locked(stream);
  }

 private:
  template <class... Parts>
  void log(const Parts&... parts) {
    const std::lock_guard lock(mutex_);
    log_locked(parts...);
  }
  template <class... Parts>
  void log_locked(const Parts&... parts) {
    std::string line;
    ((line += to_text(parts)), ...);
    log_.push_back(std::move(line));
  }
  static std::string to_text(const std::string& s) { return s; }
  static std::string to_text(const char* s) { return s; }
  static std::string to_text(std::size_t n) { return std::to_string(n); }
  std::string stream_name_locked(void* stream) const {
    if (!stream) return "null";
    const auto found = stream_names_.find(stream);
    return found == stream_names_.end() ? "?" : found->second;
  }

  std::mutex mutex_;
  std::map<void*, std::string> stream_names_;
  std::map<void*, std::string> events_;  // kept until the runtime goes, so names stay unique
  std::map<void*, std::string> graph_names_;
  std::vector<std::string> log_;
  int streams_made_ = 0, events_made_ = 0, graphs_made_ = 0;
};

// The fake installed for cpu devices; cpu_pinned devices keep the real (host) runtime, so they are
// the host reading what the "device" wrote. At the end every event passes and the pools give back
// what waited for them, while the fake is still there to be asked.
struct FakeCpu {
  FakeRuntime fake;
  detail::ScopedServices installed{DeviceType::cpu, {.runtime = &fake}};
  ~FakeCpu() {
    fake.pass_events();
    get_default_memory_pool(cpu(0)).free_all_blocks();
  }
};

}  // namespace xp::testing
