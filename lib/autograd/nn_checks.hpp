#pragma once
// Argument checks shared by the neural-network functions.
#include <string_view>

#include "xp/ndarray.hpp"

namespace xp::detail {

inline void require_float(std::string_view op, const ArrayCore& a, std::string_view what = "its input") {
  XP_CHECK(is_float_dtype(a.dtype()), TypeError, op, ": ", what, " must be float32 or float64, not ", a.dtype());
}

}  // namespace xp::detail
