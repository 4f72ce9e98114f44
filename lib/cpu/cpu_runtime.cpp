#include "cpu/cpu_runtime.hpp"

#include <chrono>
#include <cstring>
#include <fstream>
#include <string>

#include "cpu/host_allocator.hpp"
#include "xp/error.hpp"

namespace xp::detail {

namespace {

using Clock = std::chrono::steady_clock;

// MemTotal and MemAvailable of /proc/meminfo, in bytes.
MemoryInfo host_memory_info() {
  MemoryInfo info;
  std::ifstream meminfo("/proc/meminfo");
  std::string key;
  std::size_t kib = 0;
  std::string unit;
  while (meminfo >> key >> kib) {
    if (key == "MemTotal:") info.total = kib * 1024;
    if (key == "MemAvailable:") info.free = kib * 1024;
    std::getline(meminfo, unit);
  }
  XP_CHECK(info.total != 0, Error, "cannot read the host memory size from /proc/meminfo");
  return info;
}

[[noreturn]] void throw_no_capture(Device device) {
  throw NotImplementedError("stream capture on ", device,
                            ": CPU streams run their work as it is queued (xp::capture replays the function)");
}

class CpuRuntime final : public Runtime {
 public:
  CpuRuntime() noexcept : Runtime(/*host_synchronous=*/true) {}

  int current_device() const override { return 0; }
  void set_device(int) const override {}
  void restore_device(int) const noexcept override {}

  int device_count() const noexcept override { return Device::kMaxDeviceId; }
  void synchronize_device(Device) override {}

  void* create_stream(Device, const StreamOptions&) override { return new char; }  // an identity token
  std::pair<int, int> stream_priorities(Device) override { return {0, 0}; }
  int stream_priority(Device, void*) override { return 0; }
  void check_stream(Device, void*) override {}
  // Work on CPU streams is done when it is queued: so is the function.
  void launch_host_func(Device, void*, void (*fn)(void*), void* data) override { fn(data); }
  void destroy_stream(Device, void* stream) noexcept override { delete static_cast<char*>(stream); }
  void synchronize_stream(Device, void*) override {}
  bool query_stream(Device, void*) override { return true; }

  void* create_event(Device, const EventOptions&) override { return new Clock::time_point(); }
  void destroy_event(Device, void* event) noexcept override { delete static_cast<Clock::time_point*>(event); }
  void record_event(void* event, Device, void*) override { *static_cast<Clock::time_point*>(event) = Clock::now(); }
  void block(void*, Device, void*) override {}
  bool query_event(Device, void*) override { return true; }
  void synchronize_event(Device, void*) override {}
  float elapsed_ms(Device, void* start, void* end) override {
    const auto elapsed = *static_cast<Clock::time_point*>(end) - *static_cast<Clock::time_point*>(start);
    return std::chrono::duration<float, std::milli>(elapsed).count();
  }

  void begin_capture(Device device, void*) override { throw_no_capture(device); }
  void* end_capture(Device device, void*) override { throw_no_capture(device); }
  void abandon_capture(Device, void*) noexcept override {}
  void launch_graph(Device device, void*, void*) override { throw_no_capture(device); }
  void destroy_graph(Device, void*) noexcept override {}

  void copy_bytes(void* dst, const void* src, std::size_t bytes, Device, void*) override {
    if (bytes) std::memcpy(dst, src, bytes);
  }

  RawAllocator& raw_allocator(Device) override { return HostAllocator::instance(); }
  MemoryInfo memory_info(Device) override { return host_memory_info(); }
};

}  // namespace

Runtime& cpu_runtime() {
  static CpuRuntime runtime;
  return runtime;
}

}  // namespace xp::detail
