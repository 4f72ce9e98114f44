#pragma once
// The view loops of DeviceKernels (copies with a cast, fills, arange), written once
// over a loop driver: each is a plan of views (core/view_plan.hpp) run by the driver's elementwise
// loop. Driver::run<R>(plan, f, operands...) is cpu_elementwise (kernels/xp/kernels/cpu/) or
// launch_elementwise (kernels/xp/kernels/cuda/); instantiated in lib/cpu and, by nvcc, in lib/cuda.
#include <cstring>
#include <span>

#include "core/bit_dispatch.hpp"
#include "core/view_plan.hpp"
#include "xp/detail/iota_range.hpp"
#include "xp/kernels/generators.hpp"
#include "xp/kernels/iota_dispatch.hpp"
#include "xp/kernels/monoids.hpp"
#include "xp/kernels/operands.hpp"

namespace xp::detail {

template <class Driver>
struct ViewKernels {
  // Strided or cast copies (contiguous copies of one dtype are the runtime's byte copies).
  static void copy_cast(const StridedView& src, const StridedView& dst, const Exec& exec) {
    const ElementwisePlan plan = plan_views(exec, dst, std::span(&src, 1), WithPosition::no);
    if (plan.size == 0) return;
    with_cast_types(src.type, dst.type, [&]<class S, class D>() {
      Driver::template run<D>(plan, kernels::Identity{}, kernels::ArrayIn<S>{static_cast<const S*>(src.data)});
    });
  }

  static void fill(const StridedView& dst, const void* value, const Exec& exec) {
    const ElementwisePlan plan = plan_views(exec, dst, {}, WithPosition::no);
    if (plan.size == 0) return;
    visit_bits(itemsize(dst.type), [&](auto bits) {
      using T = typename decltype(bits)::type;
      T pattern;
      std::memcpy(&pattern, value, sizeof(T));
      Driver::template run<T>(plan, kernels::Fill<T>{pattern});
    });
  }

  static void iota(const StridedView& dst, const IotaRange& range, const Exec& exec) {
    const ElementwisePlan plan = plan_views(exec, dst, {}, WithPosition::yes);
    if (plan.size == 0) return;
    kernels::with_iota(dst.type, range, [&]<class T, class Acc>(const kernels::Iota<T, Acc>& iota) {
      Driver::template run<T>(plan, iota, kernels::PositionIn{});
    });
  }
};

}  // namespace xp::detail
