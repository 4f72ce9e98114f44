#include "parallel/device_workers.hpp"

#include <omp.h>

#include <exception>
#include <utility>

namespace xp::parallel {

DeviceWorkers::DeviceWorkers(std::vector<Device> devices) : devices_(std::move(devices)) {
  for (const Device d : devices_)
    streams_.push_back(d.is_gpu() && devices_.size() > 1 ? std::optional<Stream>(Stream(d, /*non_blocking=*/true))
                                                         : std::nullopt);
}

void DeviceWorkers::run(const Task& task) {
  const int n = static_cast<int>(devices_.size());
  if (n == 1) {
    task(0);
    return;
  }
  std::vector<std::exception_ptr> errors(devices_.size());
#pragma omp parallel for num_threads(n) schedule(static, 1)
  for (int i = 0; i < n; ++i) {
    const auto index = static_cast<std::size_t>(i);
    try {
      std::optional<StreamScope> own_stream;
      if (streams_[index]) own_stream.emplace(*streams_[index]);
      task(index);
    } catch (...) {
      errors[index] = std::current_exception();
    }
  }
  for (const std::exception_ptr& error : errors)
    if (error) std::rethrow_exception(error);
}

}  // namespace xp::parallel
