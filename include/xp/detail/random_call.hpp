#pragma once
// A request for random numbers as a backend receives it: element i of the output gets the value of
// the counter-based generator at counter offset + i under `seed`; a and b are low and high
// (uniform) or mean and standard deviation (normal).
#include <cstdint>

#include "xp/export.hpp"

namespace xp::detail {

struct XP_API RandomCall {
  enum Distribution : std::uint8_t { uniform, normal } distribution;
  std::uint64_t seed;
  std::uint64_t offset;
  double a, b;
};

}  // namespace xp::detail
