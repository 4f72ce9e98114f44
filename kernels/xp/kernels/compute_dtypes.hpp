#pragma once
// The dtypes the device kernels compute in: every dtype but the 2-byte floats, which the library
// computes in float32 (converting before and after, rounding once per operation), so the tables of
// built-in operations, reductions and products are compiled for eleven types, not thirteen.
#include <utility>

#include "xp/dtype.hpp"
#include "xp/error.hpp"

namespace xp::kernels {

// Calls f(std::type_identity<T>{}) with the C++ type of t, a compute dtype (not a 2-byte float).
template <class F>
decltype(auto) visit_compute_dtype(dtype t, F&& f) {
  XP_ASSERT(!is_two_byte_float(t));
  return detail::visit_list(detail::compute_element_types{}, t, std::forward<F>(f));
}

}  // namespace xp::kernels
