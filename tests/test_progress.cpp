// xp::ProgressLine: the exact bytes it writes to a terminal (a pseudo-terminal here), nothing to a file,
// XP_PROGRESS overriding both; the sizes and durations it formats.
#include "xp/progress.hpp"

#include <doctest/doctest.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <termios.h>
#include <unistd.h>

#include <cstdio>
#include <string>

#include "scoped_env.hpp"

namespace {

// A pseudo-terminal: what the library writes to `terminal` is read back from the other end.
class PseudoTerminal {
 public:
  PseudoTerminal() : master_(::posix_openpt(O_RDWR | O_NOCTTY)) {
    REQUIRE(master_ >= 0);
    REQUIRE(::grantpt(master_) == 0);
    REQUIRE(::unlockpt(master_) == 0);
    terminal_ = std::fopen(::ptsname(master_), "w");
    REQUIRE(terminal_ != nullptr);
  }
  ~PseudoTerminal() {
    std::fclose(terminal_);
    ::close(master_);
  }
  std::FILE* terminal() const { return terminal_; }
  // What has arrived so far (the terminal turns "\n" into "\r\n").
  std::string read() {
    std::fflush(terminal_);
    std::string out;
    char buffer[256];
    pollfd ready{master_, POLLIN, 0};
    while (::poll(&ready, 1, 100) > 0) {
      const ssize_t n = ::read(master_, buffer, sizeof buffer);
      if (n <= 0) break;
      out.append(buffer, static_cast<std::size_t>(n));
    }
    return out;
  }

 private:
  int master_;
  std::FILE* terminal_ = nullptr;
};

}  // namespace

TEST_CASE("ProgressLine on a terminal: rewritten in place, padded over longer text, then left or erased") {
  const ScopedEnv unset("XP_PROGRESS", std::nullopt);
  PseudoTerminal pty;
  CHECK(xp::progress_shown_on(pty.terminal()));
  {
    xp::ProgressLine line(pty.terminal());
    CHECK(line.shown());
    line.update("abc");
    line.update("skipped: within 0.1 s of the last update");
    line.update("a", /*force=*/true);
    line.finish("done");
  }
  CHECK(pty.read() == "\rabc\ra  \rdone\r\n");
  {
    xp::ProgressLine line(pty.terminal());
    line.update("12/24");
  }  // unfinished: erased
  CHECK(pty.read() == "\r12/24\r     \r");
}

TEST_CASE("ProgressLine elsewhere: nothing on a file or pipe; XP_PROGRESS=1 shows it, XP_PROGRESS=0 hides it") {
  std::FILE* file = std::tmpfile();
  PseudoTerminal pty;
  {
    const ScopedEnv unset("XP_PROGRESS", std::nullopt);
    xp::ProgressLine line(file);
    CHECK_FALSE(line.shown());
    line.update("abc", true);
    line.finish("done");
    std::fflush(file);
    CHECK(std::ftell(file) == 0);
  }
  {
    const ScopedEnv shown("XP_PROGRESS", "1");
    CHECK(xp::progress_shown_on(file));
  }
  {
    const ScopedEnv hidden("XP_PROGRESS", "0");
    CHECK_FALSE(xp::progress_shown_on(pty.terminal()));
  }
  std::fclose(file);
}

TEST_CASE("format_bytes and format_duration") {
  CHECK(xp::format_bytes(812) == "812 B");
  CHECK(xp::format_bytes(1536) == "1.5 KiB");
  CHECK(xp::format_bytes(3.4 * 1024 * 1024) == "3.4 MiB");
  CHECK(xp::format_bytes(2.0 * 1024 * 1024 * 1024) == "2.0 GiB");
  CHECK(xp::format_duration(0.43) == "0.4 s");
  CHECK(xp::format_duration(12.7) == "12 s");
  CHECK(xp::format_duration(185.2) == "3 min 05 s");
  CHECK(xp::format_duration(7290) == "2 h 01 min");
}
