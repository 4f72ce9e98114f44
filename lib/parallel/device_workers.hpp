#pragma once
// One worker thread per device, so that every device's share of a step runs at once: run(task) calls
// task(i) on worker i for every device together and returns when all are done, rethrowing the first
// failure in device order. A cpu device's worker gets its share of the cores (the calling thread's
// threads divided among the cpu devices, at least one), so devices never oversubscribe the machine;
// a GPU's worker queues its work on a stream of its own. With one device the task runs on the
// calling thread. run is called by one thread at a time.
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

#include "xp/device.hpp"

namespace xp::parallel {

class DeviceWorkers {
 public:
  using Task = std::function<void(std::size_t device_index)>;

  explicit DeviceWorkers(std::vector<Device> devices);
  ~DeviceWorkers();
  DeviceWorkers(const DeviceWorkers&) = delete;
  DeviceWorkers& operator=(const DeviceWorkers&) = delete;

  void run(const Task& task);
  const std::vector<Device>& devices() const noexcept { return devices_; }

 private:
  void work(std::size_t index, int cpu_threads);

  std::vector<Device> devices_;
  std::mutex mutex_;
  std::condition_variable start_, finished_;
  const Task* task_ = nullptr;
  std::uint64_t generation_ = 0;
  std::size_t remaining_ = 0;
  bool stop_ = false;
  std::vector<std::exception_ptr> errors_;
  std::vector<std::thread> threads_;
};

}  // namespace xp::parallel
