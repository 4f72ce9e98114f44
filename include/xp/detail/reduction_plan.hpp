#pragma once
// The plan of a reduction, made once per call by backend-independent code (reduction_planner.hpp)
// and run by a loop driver (CPU: kernels/cpu/reduction.hpp; CUDA: kernels/cuda/reduction.cuh). The
// input is seen as outputs x reduced elements: output k (C order over the kept axes) reduces the
// elements at input + kept offset of k + reduced offset of j, for j in [0, reduced).
#include <cstdint>

#include "xp/detail/exec.hpp"
#include "xp/export.hpp"
#include "xp/shape.hpp"

namespace xp {
class MemoryPool;
}  // namespace xp

namespace xp::detail {

struct XP_API ReductionPlan {
  Exec exec;  // the input's device and its current stream
  MemoryPool* scratch = nullptr;  // GPU plans: where partials and accumulators come from (the default pool)
  const void* input = nullptr;
  void* output = nullptr;  // C-contiguous: output k at index k
  std::int64_t outputs = 0;
  std::int64_t reduced = 0;
  Shape kept_shape;  // squashed
  Strides kept_strides;
  Shape reduced_shape;  // squashed; reordered unless the reduction is ordered
  Strides reduced_strides;
  bool fits_int32 = false;  // every position and offset fits in int32
};

}  // namespace xp::detail
