#pragma once
// The plan of an elementwise loop, made once per call by backend-independent code (lib/api) and
// run by a loop driver (CPU: cpu_elementwise.hpp; CUDA: elementwise_kernels.cuh).
#include <array>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "xp/detail/exec.hpp"
#include "xp/ndarray.hpp"

namespace xp::detail {

// Operand 0 is the output; operand I + 1 is input I, an array or a scalar (zero strides, no data).
inline constexpr int kMaxOperands = 8;

struct ElementwisePlan {
  Exec exec;  // the operands' device and its current stream
  std::int64_t size = 0;
  int operands = 0;
  Shape shape;  // the loop's shape: broadcast, then squashed
  std::array<void*, kMaxOperands> data{};  // null for scalar inputs
  std::array<Strides, kMaxOperands> strides;  // in elements, over `shape`
  bool contiguous = false;  // every array operand walks memory with stride 1
  bool fits_int32 = false;  // the size and every operand's offsets fit in int32
  std::vector<ArrayCore> temporaries;  // copies of inputs that partly overlapped the output
};

// Plans `op` over its inputs (null for a scalar input) writing to a new array of dtype `result`,
// which it returns, or (second form) to `out`. Input I is argument I of `op` in error messages.
// Checks that every operand is on one device (DeviceMismatchError), broadcasts (ValueError), lets
// `out` alias an input exactly (in place) and copies inputs that overlap it otherwise.
ArrayCore plan_elementwise(std::string_view op, std::span<const ArrayCore* const> inputs, xp::dtype result,
                           ElementwisePlan& plan);
void plan_elementwise(std::string_view op, std::span<const ArrayCore* const> inputs, const ArrayCore& out,
                      ElementwisePlan& plan);

}  // namespace xp::detail
