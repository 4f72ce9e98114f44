#pragma once
// A run-time kernel's first compile (nothing in the disk cache) can take seconds: on a terminal, once it
// has taken `notice_after` (1 s), one line says what is being compiled, and when done, how long it took.
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>

#include "xp/progress.hpp"

namespace xp::detail {

class CompileNotice {
 public:
  explicit CompileNotice(std::string what);  // "run-time kernel 'squared_diff' for cpu(0)"
  ~CompileNotice();  // the compile is over (or failed: the line is erased)
  void done();  // succeeded: the line, if shown, says how long it took
  CompileNotice(const CompileNotice&) = delete;
  CompileNotice& operator=(const CompileNotice&) = delete;

 private:
  void stop();

  std::string what_;
  ProgressLine line_;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
  std::mutex mutex_;
  std::condition_variable wake_;
  bool finished_ = false;
  bool announced_ = false;  // the waiting thread showed the line
  std::thread waiter_;
};

// The delay before the line shows (tests set 0).
void set_compile_notice_delay(std::chrono::milliseconds delay) noexcept;

}  // namespace xp::detail
