#include <cstring>

#include "core/bit_dispatch.hpp"
#include "cuda/cuda_view_loops.hpp"
#include "xp/kernels/cuda/elementwise.cuh"
#include "xp/kernels/generators.hpp"
#include "xp/kernels/iota_dispatch.hpp"
#include "xp/kernels/random_dispatch.hpp"

namespace xp::detail {

void cuda_fill(const StridedView& dst, const void* value, const Exec& exec) {
  const ElementwisePlan plan = plan_views(exec, dst, {}, WithPosition::no);
  if (plan.size == 0) return;
  visit_bits(itemsize(dst.type), [&](auto bits) {
    using T = typename decltype(bits)::type;
    T pattern;
    std::memcpy(&pattern, value, sizeof(T));
    launch_elementwise<T>(plan, kernels::Fill<T>{pattern});
  });
}

void cuda_iota(const StridedView& dst, const IotaRange& range, const Exec& exec) {
  const ElementwisePlan plan = plan_views(exec, dst, {}, WithPosition::yes);
  if (plan.size == 0) return;
  kernels::with_iota(dst.type, range, [&]<class T, class Acc>(const kernels::Iota<T, Acc>& iota) {
    launch_elementwise<T>(plan, iota, kernels::PositionIn{});
  });
}

void cuda_random(const StridedView& dst, const RandomCall& call, const Exec& exec) {
  const ElementwisePlan plan = plan_views(exec, dst, {}, WithPosition::yes);
  if (plan.size == 0) return;
  kernels::with_random_distribution(dst.type, call, [&](auto distribution) {
    using T = typename decltype(distribution)::result_type;
    launch_elementwise<T>(plan, distribution, kernels::PositionIn{});
  });
}

}  // namespace xp::detail
