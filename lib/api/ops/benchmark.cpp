#include "xp/benchmark.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>
#include <ostream>

#include "xp/error.hpp"
#include "xp/stream.hpp"

namespace xp {

namespace {

// One device's (or the host's) times as CuPy prints them.
std::string item(const std::string& label, std::span<const double> seconds) {
  const double n = static_cast<double>(seconds.size());
  const double mean = std::accumulate(seconds.begin(), seconds.end(), 0.0) / n;
  double squares = 0;
  for (double t : seconds) squares += (t - mean) * (t - mean);
  char text[160];
  int length = std::snprintf(text, sizeof text, "    %s:%9.3f us", label.c_str(), mean * 1e6);
  if (seconds.size() > 1) {
    const auto [low, high] = std::minmax_element(seconds.begin(), seconds.end());
    length +=
        std::snprintf(text + length, sizeof text - static_cast<std::size_t>(length),
                      "   +/-%6.3f (min:%9.3f / max:%9.3f) us", std::sqrt(squares / n) * 1e6, *low * 1e6, *high * 1e6);
  }
  return std::string(text, static_cast<std::size_t>(length));
}

std::vector<Device> timed_devices(const BenchmarkOptions& options) {
  if (options.devices.empty()) {
    const Device current = current_device();
    return current.type() == DeviceType::gpu ? std::vector<Device>{current} : std::vector<Device>{};
  }
  for (std::size_t k = 0; k < options.devices.size(); ++k) {
    const Device d = options.devices[k];
    XP_CHECK(d.type() == DeviceType::gpu, ValueError, "benchmark: ", d,
             " is not a GPU (the host's time is always measured)");
    XP_CHECK(std::find(options.devices.begin(), options.devices.begin() + static_cast<std::ptrdiff_t>(k), d) ==
                 options.devices.begin() + static_cast<std::ptrdiff_t>(k),
             ValueError, "benchmark: ", d, " is listed twice");
  }
  return options.devices;
}

}  // namespace

BenchmarkResult::BenchmarkResult(std::string name, std::vector<Device> devices, std::vector<double> cpu_times,
                                 std::vector<std::vector<double>> gpu_times)
    : name_(std::move(name)), devices_(std::move(devices)), cpu_(std::move(cpu_times)), gpu_(std::move(gpu_times)) {
  XP_CHECK(!cpu_.empty() && gpu_.size() == devices_.size(), ValueError, "BenchmarkResult: ", cpu_.size(),
           " host times and ", gpu_.size(), " GPU time lists for ", devices_.size(), " devices");
  for (const auto& times : gpu_)
    XP_CHECK(times.size() == cpu_.size(), ValueError, "BenchmarkResult: ", times.size(), " GPU times for ", cpu_.size(),
             " runs");
}

std::span<const double> BenchmarkResult::gpu_times(std::size_t k) const {
  XP_CHECK(k < gpu_.size(), IndexError, "gpu_times: device index ", k, " out of range for ", gpu_.size(),
           " timed devices");
  return gpu_[k];
}

std::string BenchmarkResult::to_string(bool show_gpu) const {
  std::string line = name_;
  if (line.size() < 20) line.append(20 - line.size(), ' ');
  line += ":" + item("CPU", cpu_);
  if (show_gpu)
    for (std::size_t k = 0; k < devices_.size(); ++k)
      line += " " + item("GPU-" + std::to_string(devices_[k].id()), gpu_[k]);
  return line;
}

std::ostream& operator<<(std::ostream& out, const BenchmarkResult& result) { return out << result.to_string(); }

BenchmarkResult benchmark(const std::function<void()>& fn, const BenchmarkOptions& options) {
  XP_CHECK(options.n_repeat >= 1, ValueError, "benchmark: n_repeat must be at least 1, not ", options.n_repeat);
  XP_CHECK(options.n_warmup >= 0, ValueError, "benchmark: n_warmup must not be negative, not ", options.n_warmup);
  XP_CHECK(options.max_duration.count() > 0, ValueError, "benchmark: max_duration must be positive, not ",
           options.max_duration.count(), " s");
  const std::vector<Device> devices = timed_devices(options);
  const auto record = [&](std::vector<Event>& events) {
    for (std::size_t k = 0; k < devices.size(); ++k) events[k].record(current_stream(devices[k]));
  };
  std::vector<Event> starts(devices.size()), ends(devices.size());

  for (int k = 0; k < options.n_warmup; ++k) fn();
  record(starts);  // the warm-up's work is done before the first timed run starts
  for (const Event& e : starts) e.synchronize();

  std::vector<double> cpu;
  std::vector<std::vector<double>> gpu(devices.size());
  double total = 0;
  using clock = std::chrono::steady_clock;
  for (int run = 0; run < options.n_repeat; ++run) {
    record(starts);
    const clock::time_point begin = clock::now();
    fn();
    cpu.push_back(std::chrono::duration<double>(clock::now() - begin).count());
    record(ends);
    for (std::size_t k = 0; k < devices.size(); ++k) {
      ends[k].synchronize();
      gpu[k].push_back(elapsed_time(starts[k], ends[k]) * 1e-3);
    }
    total += std::chrono::duration<double>(clock::now() - begin).count();
    if (total > options.max_duration.count()) break;
  }
  return BenchmarkResult(options.name, devices, std::move(cpu), std::move(gpu));
}

}  // namespace xp
