#pragma once
// Runs a built-in operation's functor with a backend's loop driver: each input becomes an AnyIn
// reading its plan slot, or the call's scalar when the slot has no data. Driver is a type with
//   template <class R, class F, class... Ops> static void run(const ElementwisePlan&, const F&, const Ops&...);
#include <cstdint>
#include <cstring>
#include <utility>

#include "xp/detail/elementwise_ops.hpp"
#include "xp/detail/elementwise_plan.hpp"
#include "xp/kernels/operands.hpp"

namespace xp::kernels {

template <class Driver>
struct BuiltinRunner {
  const detail::ElementwiseCall& call;
  const detail::ElementwisePlan& plan;

  template <class R, class... In, class F>
  void run(const F& f) const {
    [&]<std::size_t... I>(std::index_sequence<I...>) {
      Driver::template run<R>(plan, f, AnyIn<In>{static_cast<const In*>(plan.data[I + 1]), scalar<In>(I)}...);
    }(std::index_sequence_for<In...>{});
  }

 private:
  template <class T>
  T scalar(std::size_t input) const {
    T value;
    std::memcpy(static_cast<void*>(&value), &call.scalars[input], sizeof(T));
    return value;
  }
};

}  // namespace xp::kernels
