#pragma once
// The driver of core/view_kernels.hpp on GPUs: the built-in operations' elementwise kernels.
#include "xp/detail/elementwise_plan.hpp"
#include "xp/kernels/cuda/elementwise.cuh"

namespace xp::detail {

struct CudaLoops {
  template <class R, class F, class... Ops>
  static void run(const ElementwisePlan& plan, const F& f, const Ops&... ops) {
    launch_elementwise<R>(plan, f, ops...);
  }
};

}  // namespace xp::detail
