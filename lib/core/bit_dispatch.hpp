#pragma once
// Dispatch on an element size to the unsigned type of that size: operations that only move bits
// (fills, same-type copies) need one instantiation per size instead of one per dtype; and the pairs
// of element types a copy with a cast needs.
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "xp/dtype.hpp"
#include "xp/error.hpp"
#include "xp/kernels/complex_math.hpp"

namespace xp::detail {

// complex128's 16 bytes, aligned as its parts are.
struct SixteenBytes {
  std::uint64_t words[2];
};

template <class F>
decltype(auto) visit_bits(std::size_t itemsize, F&& f) {
  switch (itemsize) {
    case 1: return f(std::type_identity<std::uint8_t>{});
    case 2: return f(std::type_identity<std::uint16_t>{});
    case 4: return f(std::type_identity<std::uint32_t>{});
    case 16: return f(std::type_identity<SixteenBytes>{});
    case 8: break;
    default: XP_ASSERT(itemsize == 8);
  }
  return f(std::type_identity<std::uint64_t>{});
}

// Calls f.template operator()<Source, Target>() for a copy from `source` to `target` elements: the
// unsigned type of their size for both when the dtypes are equal, else the two element types (as the
// kernels compute them: kernel_value_t).
template <class F>
void with_cast_types(xp::dtype source, xp::dtype target, F&& f) {
  if (source == target) {
    visit_bits(itemsize(source), [&](auto bits) {
      using T = typename decltype(bits)::type;
      f.template operator()<T, T>();
    });
    return;
  }
  visit_dtype(source, [&]<class S>(std::type_identity<S>) {
    visit_dtype(target, [&]<class D>(std::type_identity<D>) {
      if constexpr (!std::is_same_v<S, D>)  // equal dtypes: above
        f.template operator()<kernels::kernel_value_t<S>, kernels::kernel_value_t<D>>();
    });
  });
}

}  // namespace xp::detail
