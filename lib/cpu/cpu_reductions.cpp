#include "cpu/cpu_reductions.hpp"

#include "xp/kernels/cpu/reduction.hpp"
#include "xp/kernels/reduction_dispatch.hpp"

namespace xp::detail {

namespace {
struct CpuReductionRunner {
  const ReductionPlan& plan;
  template <class T, class Acc, class R, class Map, class Combine, class Post>
  void run(const Acc& identity, const Map& map, const Combine& combine, const Post& post) const {
    cpu_reduction<T, Acc, R>(plan, identity, map, combine, post);
  }
};
}  // namespace

void cpu_reduce(const ReductionCall& call, const ReductionPlan& plan) {
  kernels::dispatch_reduction(call, CpuReductionRunner{plan});
}

}  // namespace xp::detail
