#pragma once
// What arange asks of a backend (lib/api/array/creation.cpp): dst[i] = start + i * step over C-order
// positions, in int64 or in double arithmetic.
#include <cstdint>

#include "xp/export.hpp"

namespace xp::detail {

struct XP_API IotaRange {
  bool integral;
  std::int64_t int_start, int_step;
  double float_start, float_step;
};

}  // namespace xp::detail
