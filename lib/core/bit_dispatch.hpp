#pragma once
// Dispatch on an element size to the unsigned type of that size: operations that only move bits
// (fills, same-type copies) need one instantiation per size instead of one per dtype.
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "xp/error.hpp"

namespace xp::detail {

template <class F>
decltype(auto) visit_bits(std::size_t itemsize, F&& f) {
  switch (itemsize) {
    case 1: return f(std::type_identity<std::uint8_t>{});
    case 2: return f(std::type_identity<std::uint16_t>{});
    case 4: return f(std::type_identity<std::uint32_t>{});
    case 8: break;
    default: XP_ASSERT(itemsize == 8);
  }
  return f(std::type_identity<std::uint64_t>{});
}

}  // namespace xp::detail
