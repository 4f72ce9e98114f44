#pragma once
// Whether this run's default pools hand memory straight back (XP_DISABLE_POOL=1): the fault sweeps
// need every allocation to reach the raw allocator, and the cases about reusing cached blocks do not
// apply.
#include <cstdlib>
#include <string>

inline bool pool_disabled() {
  static const bool disabled = [] {
    const char* value = std::getenv("XP_DISABLE_POOL");
    return value != nullptr && std::string(value) == "1";
  }();
  return disabled;
}
