#include "xp/progress.hpp"

#include <unistd.h>

#include <cmath>
#include <cstdlib>
#include <cstring>

namespace xp {

bool progress_shown_on(std::FILE* stream) noexcept {
  if (const char* setting = std::getenv("XP_PROGRESS")) {
    if (std::strcmp(setting, "0") == 0) return false;
    if (std::strcmp(setting, "1") == 0) return true;
  }
  return stream != nullptr && ::isatty(::fileno(stream)) == 1;
}

ProgressLine::ProgressLine(std::FILE* stream) : stream_(stream), shown_(progress_shown_on(stream)) {}

ProgressLine::~ProgressLine() {
  if (open_) finish();
}

void ProgressLine::update(std::string_view text, bool force) {
  if (!shown_) return;
  const auto now = std::chrono::steady_clock::now();
  if (open_ && !force && now - last_ < std::chrono::milliseconds(100)) return;
  last_ = now;
  // Back to the start of the line; blanks cover what a longer previous text left.
  const int padding = width_ > text.size() ? static_cast<int>(width_ - text.size()) : 0;
  std::fprintf(stream_, "\r%.*s%*s", static_cast<int>(text.size()), text.data(), padding, "");
  std::fflush(stream_);
  width_ = text.size();
  open_ = true;
}

void ProgressLine::finish(std::string_view text) {
  if (!shown_) return;
  if (text.empty()) {
    if (open_) std::fprintf(stream_, "\r%*s\r", static_cast<int>(width_), "");
  } else {
    update(text, true);
    std::fputc('\n', stream_);
  }
  std::fflush(stream_);
  open_ = false;
  width_ = 0;
}

std::string format_bytes(double bytes) {
  static constexpr const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  int unit = 0;
  while (bytes >= 1024 && unit < 4) {
    bytes /= 1024;
    ++unit;
  }
  char text[32];
  std::snprintf(text, sizeof text, unit == 0 ? "%.0f %s" : "%.1f %s", bytes, units[unit]);
  return text;
}

std::string format_duration(double seconds) {
  char text[32];
  if (seconds < 10) {
    std::snprintf(text, sizeof text, "%.1f s", seconds);
  } else if (seconds < 60) {
    std::snprintf(text, sizeof text, "%.0f s", std::floor(seconds));
  } else if (seconds < 3600) {
    const long s = std::lround(std::floor(seconds));
    std::snprintf(text, sizeof text, "%ld min %02ld s", s / 60, s % 60);
  } else {
    const long m = std::lround(std::floor(seconds / 60));
    std::snprintf(text, sizeof text, "%ld h %02ld min", m / 60, m % 60);
  }
  return text;
}

}  // namespace xp
