#include "api/array/overlap.hpp"

#include <utility>

#include "core/layout.hpp"

namespace xp::detail {

bool may_overlap(const ArrayCore& a, const ArrayCore& b) {
  if (!a.shares_buffer_with(b) || a.size() == 0 || b.size() == 0) return false;
  const auto bytes = [](const ArrayCore& x) {
    const auto [low, high] = offset_range(x.shape(), x.strides());
    const auto item = static_cast<std::int64_t>(x.itemsize());
    const char* base = static_cast<const char*>(x.raw_data());
    return std::pair{base + low * item, base + (high + 1) * item};
  };
  const auto [a_begin, a_end] = bytes(a);
  const auto [b_begin, b_end] = bytes(b);
  return a_begin < b_end && b_begin < a_end;
}

bool has_repeated_elements(const ArrayCore& a) {
  if (a.size() == 0) return false;  // no elements, none repeated (a zero-size array has zero strides)
  for (int axis = 0; axis < a.ndim(); ++axis)
    if (a.strides()[axis] == 0 && a.shape()[axis] > 1) return true;
  return false;
}

}  // namespace xp::detail
