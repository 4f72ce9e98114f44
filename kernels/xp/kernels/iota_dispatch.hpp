#pragma once
// From an arange call and a dtype to its generator functor (host code of both backends).
#include <cstdint>

#include "xp/detail/iota_range.hpp"
#include "xp/dtype.hpp"
#include "xp/kernels/complex_math.hpp"
#include "xp/kernels/generators.hpp"

namespace xp::kernels {

// Calls f(iota) with the functor producing `type` elements for `range`.
template <class F>
void with_iota(dtype type, const detail::IotaRange& range, F&& f) {
  visit_dtype(type, [&](auto element) {
    using T = kernel_value_t<typename decltype(element)::type>;
    if (range.integral) f(Iota<T, std::int64_t>{range.int_start, range.int_step});
    else f(Iota<T, double>{range.float_start, range.float_step});
  });
}

}  // namespace xp::kernels
