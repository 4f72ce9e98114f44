#pragma once
// Elementwise plans of views: creation, random numbers and copies with a cast run through the same
// loop drivers as the built-in operations (and get their vectorised and 32-bit paths), from plans
// made here out of the views the device kernels are given.
#include <span>

#include "xp/detail/elementwise_plan.hpp"
#include "xp/dtype.hpp"
#include "xp/shape.hpp"

namespace xp::detail {

// Elements of one dtype at data + offsets given by shape and strides (in elements).
struct StridedView {
  void* data;
  xp::dtype type;
  Shape shape;
  Strides strides;
};

// Whether a plan's inputs end with the loop position (kernels::PositionIn): generators of arange
// and random numbers are functions of it.
enum class WithPosition : bool { no, yes };

// The plan of out[i] = f(inputs at i..., [i]) on exec, over views of out's shape: slot 0 is out,
// slot k + 1 is inputs[k], and the position slot, last, has no data and C-contiguous strides, so
// that the offset a driver hands it is the C-order position.
ElementwisePlan plan_views(const Exec& exec, const StridedView& out, std::span<const StridedView> inputs,
                           WithPosition position);

// The last step of every plan, once its shape, operands, data and strides are set: squashes the
// axes (non-empty loops) and sets `contiguous` and `fits_int32`.
void finish_plan(ElementwisePlan& plan);

}  // namespace xp::detail
