#pragma once
/// \file
/// Statistics of a network's arrays every few batches (MXNet 1.x's mx.monitor.Monitor):
///
/// \code{.cpp}
///   xp::Monitor mon(/*interval=*/100, {}, "fc.*");    // default statistic: norm(x) / sqrt(size), the RMS
///   mgr.install_monitor(mon);
///   mon.tic();  ... forward, backward ...  mon.toc_print();   // "Batch:     100 fc1_output    0.2147"
/// \endcode
///
/// Between a tic() on a batch that is a multiple of `interval` and the next toc(), every operation output
/// whose name matches `pattern` (std::regex, matched from the start as Python's re.match) is recorded
/// by the executors it is installed on; toc() adds the matching arguments and auxiliary states and
/// returns (batch, name, value) in the order seen, or by name when `sort`. Executors of several
/// devices may record at once.
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include "xp/executor.hpp"
#include "xp/export.hpp"

namespace xp {

/// MXNet's Monitor: statistics of an executor's arrays every `interval` batches.
class XP_API Monitor {
 public:
  /// The statistic of one array (default: its 2-norm / sqrt(size), MXNet's).
  using StatFunction = std::function<ndarray<>(const ndarray<>&)>;
  using Entry = std::tuple<std::int64_t, std::string, std::string>;  ///< batch, name, value as text

  /// Inspects arrays whose names match `pattern` (a regular expression); sort: entries by name.
  explicit Monitor(std::int64_t interval, StatFunction stat_func = {}, const std::string& pattern = ".*",
                   bool sort = false);

  /// The executor must outlive the monitor's use of it.
  void install(Executor& exe);
  void tic();  ///< starts a batch: collects during it when the batch count is a multiple of interval
  std::vector<Entry> toc();  ///< ends the batch: the statistics collected since tic
  /// toc(), each entry printed as MXNet logs it: "Batch: %7d %30s %s".
  void toc_print();

 private:
  struct State;
  std::shared_ptr<State> state_;
};

}  // namespace xp
