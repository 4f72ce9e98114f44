#include "parallel/device_workers.hpp"

#include <algorithm>
#include <optional>

#include "xp/detail/parallel_for.hpp"
#include "xp/stream.hpp"

namespace xp::parallel {

DeviceWorkers::DeviceWorkers(std::vector<Device> devices) : devices_(std::move(devices)) {
  if (devices_.size() < 2) return;
  const auto host_devices = std::count_if(devices_.begin(), devices_.end(), [](Device d) { return d.is_host(); });
  const int share = std::max(1, detail::cpu_threads() / static_cast<int>(std::max<std::ptrdiff_t>(host_devices, 1)));
  errors_.resize(devices_.size());
  for (std::size_t i = 0; i < devices_.size(); ++i) threads_.emplace_back([this, i, share] { work(i, share); });
}

DeviceWorkers::~DeviceWorkers() {
  {
    const std::lock_guard lock(mutex_);
    stop_ = true;
  }
  start_.notify_all();
  for (std::thread& t : threads_) t.join();
}

void DeviceWorkers::work(std::size_t index, int cpu_threads) {
  const Device device = devices_[index];
  std::optional<Stream> stream;
  std::optional<StreamScope> own_stream;  // ends before its stream
  if (device.is_host()) {
    detail::set_cpu_threads(cpu_threads);
  } else {
    stream.emplace(device, /*non_blocking=*/true);
    own_stream.emplace(*stream);
  }
  std::uint64_t seen = 0;
  std::unique_lock lock(mutex_);
  for (;;) {
    start_.wait(lock, [&] { return stop_ || generation_ != seen; });
    if (stop_) return;
    seen = generation_;
    const Task& task = *task_;
    lock.unlock();
    std::exception_ptr error;
    try {
      task(index);
    } catch (...) {
      error = std::current_exception();
    }
    lock.lock();
    errors_[index] = error;
    if (--remaining_ == 0) finished_.notify_one();
  }
}

void DeviceWorkers::run(const Task& task) {
  if (threads_.empty()) {
    for (std::size_t i = 0; i < devices_.size(); ++i) task(i);
    return;
  }
  std::unique_lock lock(mutex_);
  task_ = &task;
  remaining_ = threads_.size();
  ++generation_;
  start_.notify_all();
  finished_.wait(lock, [&] { return remaining_ == 0; });
  task_ = nullptr;
  for (std::exception_ptr& error : errors_)
    if (error) std::rethrow_exception(std::exchange(error, nullptr));
}

}  // namespace xp::parallel
