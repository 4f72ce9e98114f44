#pragma once
// The dtypes the device kernels compute in: every dtype but the 2-byte floats, which the library
// computes in float32 (converting before and after, rounding once per operation), so the tables of
// built-in operations, reductions and products are compiled for thirteen types, not fifteen. Complex
// types are passed as the kernels compute them (kernel_value_t: libcu++'s complex under nvcc).
#include <utility>

#include "xp/dtype.hpp"
#include "xp/error.hpp"
#include "xp/kernels/complex_math.hpp"

namespace xp::kernels {

// Calls f(std::type_identity<T>{}) with the C++ type of t, a compute dtype (not a 2-byte float).
template <class F>
decltype(auto) visit_compute_dtype(dtype t, F&& f) {
  XP_ASSERT(!is_two_byte_float(t));
  return detail::visit_list(detail::compute_element_types{}, t, [&](auto type) -> decltype(auto) {
    return f(std::type_identity<kernel_value_t<typename decltype(type)::type>>{});
  });
}

}  // namespace xp::kernels
