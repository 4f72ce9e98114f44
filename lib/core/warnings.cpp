// The warning handler every layer reports through.
#include "xp/warnings.hpp"

#include <cstdio>
#include <mutex>
#include <string>
#include <utility>

namespace xp::utils {

namespace {

std::mutex handler_mutex;
WarningHandler& handler() {
  static auto* h = new WarningHandler;  // never destroyed: warnings may come from static destructors
  return *h;
}

}  // namespace

void set_warning_handler(WarningHandler h) {
  const std::lock_guard lock(handler_mutex);
  handler() = std::move(h);
}

void warn(std::string_view message) {
  WarningHandler h;
  {
    const std::lock_guard lock(handler_mutex);
    h = handler();
  }
  if (h) {
    h(message);
    return;
  }
  const std::string line = "xparray warning: " + std::string(message) + "\n";
  std::fwrite(line.data(), 1, line.size(), stderr);
}

}  // namespace xp::utils
