#include "api/jit/compile_notice.hpp"

#include <atomic>

namespace xp::detail {

namespace {

std::atomic<std::chrono::milliseconds::rep> delay_ms{1000};

}  // namespace

void set_compile_notice_delay(std::chrono::milliseconds delay) noexcept { delay_ms = delay.count(); }

CompileNotice::CompileNotice(std::string what) : what_(std::move(what)) {
  if (!line_.shown()) return;  // no thread where nothing would show
  waiter_ = std::thread([this] {
    std::unique_lock lock(mutex_);
    if (wake_.wait_for(lock, std::chrono::milliseconds(delay_ms.load()), [this] { return finished_; })) return;
    line_.update("xparray: compiling " + what_ + " ...", true);
    announced_ = true;
  });
}

void CompileNotice::stop() {
  if (!waiter_.joinable()) return;
  {
    const std::lock_guard lock(mutex_);
    finished_ = true;
  }
  wake_.notify_one();
  waiter_.join();
}

void CompileNotice::done() {
  stop();
  if (!announced_) return;
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  line_.finish("xparray: compiled " + what_ + " in " + format_duration(seconds) +
               "; later runs load it from the disk cache");
}

CompileNotice::~CompileNotice() { stop(); }  // an unfinished line is erased by line_

}  // namespace xp::detail
