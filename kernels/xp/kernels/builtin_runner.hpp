#pragma once
// Runs a built-in operation's functor with a backend's loop driver: each input becomes an AnyIn
// reading its plan slot, or the call's scalar when the slot has no data; an input or result the table
// names Narrow<S> is a 2-byte float S computed as float (a WidenedIn; the result rounded to S once).
// Driver is a type with
//   template <class R, class F, class... Ops> static void run(const ElementwisePlan&, const F&, const Ops&...);
#include <cstdint>
#include <cstring>
#include <utility>

#include "xp/detail/elementwise_ops.hpp"
#include "xp/detail/elementwise_plan.hpp"
#include "xp/kernels/operands.hpp"

namespace xp::kernels {

template <class S>
struct Narrow {};

template <class T>
struct stored {
  using type = T;
};
template <class S>
struct stored<Narrow<S>> {
  using type = S;
};
template <class T>
using stored_t = typename stored<T>::type;

template <class T>
struct operand {
  using type = AnyIn<T>;
};
template <class S>
struct operand<Narrow<S>> {
  using type = WidenedIn<S>;
};
template <class T>
using operand_t = typename operand<T>::type;

template <class Driver>
struct BuiltinRunner {
  const detail::ElementwiseCall& call;
  const detail::ElementwisePlan& plan;

  template <class R, class... In, class F>
  void run(const F& f) const {
    [&]<std::size_t... I>(std::index_sequence<I...>) {
      Driver::template run<stored_t<R>>(plan, f, input<In>(I)...);
    }(std::index_sequence_for<In...>{});
  }

 private:
  template <class In>
  operand_t<In> input(std::size_t k) const {
    using S = stored_t<In>;
    return {AnyIn<S>{static_cast<const S*>(plan.data[k + 1]), scalar<S>(k)}};
  }

  template <class T>
  T scalar(std::size_t input) const {
    T value;
    std::memcpy(static_cast<void*>(&value), &call.scalars[input], sizeof(T));
    return value;
  }
};

}  // namespace xp::kernels
