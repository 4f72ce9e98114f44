#pragma once
// Every device's share of a step at once: run(task) calls task(i) for every device i together, each
// on a thread of one OpenMP team of the calling thread, and returns when all are done, rethrowing the
// first failure in device order. The team, not threads of our own: OpenMP's idle threads spin for a
// while after each parallel region, and threads beside them would be starved of the cores (measured:
// a step on two cpu devices took 2.0x one device's time with a separate thread per device, 0.8x with
// the team). The team has as many threads as the library's loops use (at least one per device); the
// cpu devices split them (detail::CoreShare), so they neither oversubscribe nor idle the machine; a
// GPU's task queues its work on a stream of its own. With one device the task runs on the calling
// thread. run is called by one thread at a time.
#include <functional>
#include <optional>
#include <vector>

#include "xp/device.hpp"
#include "xp/stream.hpp"

namespace xp::parallel {

// Each device's share of a team of `threads` threads for its loops: one for a GPU (its worker only
// queues work), the rest split between the cpu devices, the first ones taking the remainder.
std::vector<int> core_shares(const std::vector<Device>& devices, int threads);

class DeviceWorkers {
 public:
  using Task = std::function<void(std::size_t device_index)>;

  explicit DeviceWorkers(std::vector<Device> devices);

  void run(const Task& task);
  const std::vector<Device>& devices() const noexcept { return devices_; }

 private:
  std::vector<Device> devices_;
  std::vector<std::optional<Stream>> streams_;  // a GPU's own stream
};

}  // namespace xp::parallel
