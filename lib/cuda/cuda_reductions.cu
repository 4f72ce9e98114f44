#include "cuda/cuda_reductions.hpp"

#include "xp/kernels/cuda/reduction.cuh"
#include "xp/kernels/reduction_dispatch.hpp"

namespace xp::detail {

namespace {
struct CudaReductionRunner {
  const ReductionPlan& plan;
  template <class T, class Acc, class R, class Map, class Combine, class Post>
  void run(const Acc& identity, const Map& map, const Combine& combine, const Post& post) const {
    launch_reduction<T, Acc, R>(plan, identity, map, combine, post);
  }
};
}  // namespace

void cuda_reduce(const ReductionCall& call, const ReductionPlan& plan) {
  kernels::dispatch_reduction(call, CudaReductionRunner{plan});
}

}  // namespace xp::detail
