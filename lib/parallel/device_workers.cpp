#include "parallel/device_workers.hpp"

#include <omp.h>

#include <algorithm>
#include <exception>
#include <utility>

#include "xp/kernels/cpu/parallel_for.hpp"

namespace xp::parallel {

DeviceWorkers::DeviceWorkers(std::vector<Device> devices) : devices_(std::move(devices)) {
  for (const Device d : devices_)
    streams_.push_back(d.is_gpu() && devices_.size() > 1 ? std::optional<Stream>(Stream(d, /*non_blocking=*/true))
                                                         : std::nullopt);
}

std::vector<int> core_shares(const std::vector<Device>& devices, int threads) {
  const auto gpus =
      static_cast<int>(std::count_if(devices.begin(), devices.end(), [](Device d) { return d.is_gpu(); }));
  const int cpus = static_cast<int>(devices.size()) - gpus;
  const int for_cpus = std::max(threads - gpus, cpus);
  std::vector<int> shares;
  int cpu_index = 0;
  for (const Device d : devices) {
    if (d.is_gpu()) {
      shares.push_back(1);
    } else {
      shares.push_back(for_cpus / cpus + (cpu_index < for_cpus % cpus ? 1 : 0));
      ++cpu_index;
    }
  }
  return shares;
}

void DeviceWorkers::run(const Task& task) {
  const int n = static_cast<int>(devices_.size());
  if (n == 1) {
    task(0);
    return;
  }
  // GPUs alone need a thread each; cpu devices share all of the library's threads.
  const bool any_cpu = std::any_of(devices_.begin(), devices_.end(), [](Device d) { return !d.is_gpu(); });
  const int threads = any_cpu ? std::max(detail::cpu_threads(), n) : n;
  const std::vector<int> shares = core_shares(devices_, threads);
  std::vector<std::exception_ptr> errors(devices_.size());
  // Threads past the devices' go straight to the region's closing barrier, where they run the
  // devices' loop chunks (OpenMP tasks) until every device is done.
#pragma omp parallel num_threads(threads)
  {
    const int i = omp_get_thread_num();
    if (i < n) {
      const auto index = static_cast<std::size_t>(i);
      try {
        const detail::CoreShare share(shares[index]);
        std::optional<StreamScope> own_stream;
        if (streams_[index]) own_stream.emplace(*streams_[index]);
        task(index);
      } catch (...) { errors[index] = std::current_exception(); }
    }
  }
  for (const std::exception_ptr& error : errors)
    if (error) std::rethrow_exception(error);
}

}  // namespace xp::parallel
