#pragma once
/// \file
/// CuPy's cupyx.profiler.benchmark: a function timed on the host and, for each listed GPU, by events
/// recorded around it on that device's current stream.
///
/// \code{.cpp}
///   auto r = xp::benchmark([&] { xp::add(a, b, out); }, {.name = "add", .n_repeat = 1000, .devices = {xp::gpu(0)}});
///   std::cout << r;  // add                 :    CPU:    3.103 us   +/- 0.212 (min:    2.900 / max:    4.000) us
///   GPU-0: ... r.cpu_times(); r.gpu_times(0);  // seconds, one per timed run
/// \endcode
///
/// As CuPy: n_warmup untimed calls, then up to n_repeat timed ones, stopping after the one that takes
/// the total past max_duration; each run's end events are waited for before the next starts.
#include <chrono>
#include <cstddef>
#include <functional>
#include <iosfwd>
#include <limits>
#include <span>
#include <string>
#include <vector>

#include "xp/device.hpp"
#include "xp/export.hpp"

namespace xp {

/// benchmark's options (cupyx.profiler.benchmark's arguments).
struct XP_API BenchmarkOptions {
  std::string name = "benchmark";  ///< CuPy uses the function's __name__; C++ functions have none
  int n_repeat = 10000;  ///< timed runs, at most
  int n_warmup = 10;  ///< untimed runs first
  std::chrono::duration<double> max_duration{
      std::numeric_limits<double>::infinity()};  ///< stop repeating once this much time has passed
  /// GPUs to time with events; empty: the current device when it is a GPU (CuPy's default), else none.
  std::vector<Device> devices{};
};

/// The times of every run: the host's, and each GPU's from events.
class XP_API BenchmarkResult {
 public:
  /// What benchmark returns: seconds per run on the host and on each of `devices`.
  BenchmarkResult(std::string name, std::vector<Device> devices, std::vector<double> cpu_times,
                  std::vector<std::vector<double>> gpu_times);

  const std::string& name() const noexcept { return name_; }  ///< the options' name
  const std::vector<Device>& devices() const noexcept { return devices_; }  ///< the GPUs timed
  std::span<const double> cpu_times() const noexcept { return cpu_; }  ///< seconds per run, the host's wall time
  /// The times of devices()[k]; IndexError past its end.
  std::span<const double> gpu_times(std::size_t k) const;
  /// CuPy's line: the name left-aligned in 20 columns, then mean, standard deviation, min and max in us.
  std::string to_string(bool show_gpu = true) const;

 private:
  std::string name_;
  std::vector<Device> devices_;
  std::vector<double> cpu_;
  std::vector<std::vector<double>> gpu_;
};

/// Writes to_string().
XP_API std::ostream& operator<<(std::ostream& out, const BenchmarkResult& result);

/// ValueError for n_repeat < 1, n_warmup < 0, a max_duration that is not positive, and devices that
/// are not GPUs or are listed twice.
XP_API BenchmarkResult benchmark(const std::function<void()>& fn, const BenchmarkOptions& options = {});

}  // namespace xp
