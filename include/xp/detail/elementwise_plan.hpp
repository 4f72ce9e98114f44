#pragma once
// The plan of an elementwise loop, made once per call by backend-independent code (the planners of
// elementwise_planner.hpp, core/view_plan.hpp) and run by a loop driver (CPU:
// kernels/cpu/elementwise.hpp; CUDA: kernels/cuda/elementwise.cuh). It knows shapes, strides, data and
// the stream, not arrays.
#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include "xp/detail/exec.hpp"
#include "xp/export.hpp"
#include "xp/shape.hpp"

namespace xp::detail {

// Operand 0 is the output; operand I + 1 is input I, an array or a scalar (zero strides, no data).
inline constexpr int kMaxOperands = 8;

struct XP_API ElementwisePlan {
  Exec exec;  // the operands' device and its current stream
  std::int64_t size = 0;
  int operands = 0;
  Shape shape;  // the loop's shape: broadcast, then squashed
  std::array<void*, kMaxOperands> data{};  // null for scalar inputs
  std::array<Strides, kMaxOperands> strides;  // in elements, over `shape`
  bool contiguous = false;  // every array operand walks memory with stride 1
  bool fits_int32 = false;  // the size and every operand's offsets fit in int32
  // Owners of memory the loop reads that no caller holds (copies of inputs that partly overlapped
  // the output).
  std::vector<std::shared_ptr<void>> keep_alive;
};

}  // namespace xp::detail
