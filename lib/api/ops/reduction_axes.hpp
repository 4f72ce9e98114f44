#pragma once
// A reduction's axes, for the built-in reductions and ReductionKernel alike (defined in
// reduction_planner.cpp).
#include <array>
#include <string_view>

#include "xp/axes.hpp"
#include "xp/shape.hpp"

namespace xp::detail {

// The axes of a reduction over `shape`: which ones are reduced, the kept and the reduced extents,
// and the output's shape (an extent-1 axis for each reduced one where keepdims).
struct ReductionAxes {
  std::array<bool, kMaxNdim> reduce{};
  Shape out_shape, kept, reduced;
};

// ValueErrors naming `op`, as CuPy's: "axis 2 is out of bounds for array of dimension 2",
// "duplicate value in 'axis'".
ReductionAxes split_reduction_axes(std::string_view op, const Shape& shape, const Axes& axes, bool keepdims);

// An operand's strides over the reduction's shape, split as its axes.
void split_strides(const ReductionAxes& axes, const Strides& strides, Strides& kept, Strides& reduced);

// The strides over the kept axes of an output of shape axes.out_shape.
Strides output_kept_strides(const ReductionAxes& axes, const Strides& out_strides, bool keepdims);

}  // namespace xp::detail
