#pragma once
// The plan of a reduction, made once per call by backend-independent code (lib/api) and run by a
// loop driver (CPU: cpu_reduction.hpp; CUDA: reduction_launch.cuh). The input is seen as
// outputs x reduced elements: output k (C order over the kept axes) reduces the elements at
// input + kept offset of k + reduced offset of j, for j in [0, reduced).
#include <cstdint>
#include <string_view>

#include "xp/axes.hpp"
#include "xp/detail/exec.hpp"
#include "xp/ndarray.hpp"

namespace xp::detail {

struct ReductionPlan {
  Exec exec;  // the input's device and its current stream
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

// Plans `op` over `axes` of x into a new array of dtype `result` (extent-1 axes kept where
// keepdims). Axis errors are ValueErrors, as CuPy's: "sum: axis 2 is out of bounds for array of
// dimension 2", "sum: duplicate value in 'axis'". An `ordered` reduction sees the reduced elements
// in C order (arg reductions report positions); others may see them in any order, which lets the
// plan walk memory forwards and innermost-first.
ArrayCore plan_reduction(std::string_view op, const ArrayCore& x, const Axes& axes, bool keepdims,
                         bool ordered, xp::dtype result, ReductionPlan& plan);

}  // namespace xp::detail
