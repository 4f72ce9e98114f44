#include "core/bit_dispatch.hpp"
#include "cuda/cuda_view_loops.hpp"
#include "xp/kernels/cuda/elementwise.cuh"
#include "xp/kernels/monoids.hpp"

namespace xp::detail {

void cuda_copy_cast(const StridedView& src, const StridedView& dst, const Exec& exec) {
  const ElementwisePlan plan = plan_views(exec, dst, std::span(&src, 1), WithPosition::no);
  if (plan.size == 0) return;
  with_cast_types(src.type, dst.type, [&]<class S, class D>() {
    launch_elementwise<D>(plan, kernels::Identity{}, kernels::ArrayIn<S>{static_cast<const S*>(src.data)});
  });
}

}  // namespace xp::detail
