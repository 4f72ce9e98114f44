#pragma once
// From a random call and a float dtype to its distribution functor (host code of both backends).
#include "xp/detail/random_call.hpp"
#include "xp/dtype.hpp"
#include "xp/error.hpp"
#include "xp/kernels/philox.hpp"

namespace xp::kernels {

// Calls f(distribution) with the functor for `call` producing `type` (float32 or float64).
template <class F>
void with_random_distribution(dtype type, const detail::RandomCall& call, F&& f) {
  const auto run = [&]<class T>() {
    const PhiloxStream stream{call.seed, call.offset};
    if (call.distribution == detail::RandomCall::uniform)
      f(UniformDistribution<T>{stream, static_cast<T>(call.a), static_cast<T>(call.b - call.a)});
    else f(NormalDistribution<T>{stream, static_cast<T>(call.a), static_cast<T>(call.b)});
  };
  XP_ASSERT(type == dtype::float32 || type == dtype::float64);
  if (type == dtype::float32) run.template operator()<float>();
  else run.template operator()<double>();
}

}  // namespace xp::kernels
