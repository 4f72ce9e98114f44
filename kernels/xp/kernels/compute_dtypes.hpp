#pragma once
// The dtypes the device kernels compute in: every dtype but the 2-byte floats, which the library
// computes in float32 (converting before and after, rounding once per operation), so the tables of
// built-in operations, reductions and products are compiled for eleven types, not thirteen.
#include <cstdint>
#include <type_traits>

#include "xp/dtype.hpp"
#include "xp/error.hpp"

namespace xp::kernels {

// Calls f(std::type_identity<T>{}) with the C++ type of t, a compute dtype.
template <class F>
decltype(auto) visit_compute_dtype(dtype t, F&& f) {
  using std::type_identity;
  switch (t) {
    case dtype::bool_: return f(type_identity<bool>{});
    case dtype::int8: return f(type_identity<std::int8_t>{});
    case dtype::int16: return f(type_identity<std::int16_t>{});
    case dtype::int32: return f(type_identity<std::int32_t>{});
    case dtype::int64: return f(type_identity<std::int64_t>{});
    case dtype::uint8: return f(type_identity<std::uint8_t>{});
    case dtype::uint16: return f(type_identity<std::uint16_t>{});
    case dtype::uint32: return f(type_identity<std::uint32_t>{});
    case dtype::uint64: return f(type_identity<std::uint64_t>{});
    case dtype::float32: return f(type_identity<float>{});
    case dtype::float16:
    case dtype::bfloat16: XP_ASSERT(!is_two_byte_float(t)); break;
    case dtype::float64: break;
  }
  return f(type_identity<double>{});
}

}  // namespace xp::kernels
