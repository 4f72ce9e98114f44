#pragma once
// xp::fuse's trace: the expression a fused function builds from its arguments, one node per built-in
// operation with the dtypes that operation computes in and returns over its operands (the checks and
// rules of the unfused call, core/elementwise_checks.hpp), scalars kept as elements of the dtype each
// operation reads them in, and at most one trailing reduction. Pure: golden-tested without a device.
#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "xp/axes.hpp"
#include "xp/detail/elementwise_ops.hpp"
#include "xp/detail/reduction_ops.hpp"

namespace xp::detail {

struct FusionNode {
  int parameter = -1;  // >= 0: that argument of the fused function, of dtype `type`
  bool cast = false;  // else input 0 converted to `type` (astype), when set
  ElementwiseOp op{};  // else this operation, computed in `compute`, giving `type`
  xp::dtype type{};
  xp::dtype compute{};
  int arity = 0;
  std::array<int, 3> inputs{-1, -1, -1};  // node numbers; -1: scalars[k]
  std::array<ElementBits, 3> scalars{};  // each as one element of the dtype input k is read as
};

struct FusedReduction {
  Reduction reduction{};
  Axes axes = std::nullopt;
  bool keepdims = false;
  std::int64_t ddof = 0;
};

// An operand of an operation being added: a node, or a scalar (node -1).
struct FusionOperand {
  int node = -1;
  ScalarValue scalar;
};

class FusionGraph {
 public:
  int add_parameter(xp::dtype type);
  // The operation's node: its dtypes and NumPy's errors as the unfused call's; ValueError after the reduction.
  int add_operation(ElementwiseOp op, std::span<const FusionOperand> operands);
  // Node `input` converted to `type` (astype: NumPy's unsafe casting, the library's element conversion).
  int add_cast(int input, xp::dtype type);
  // The trailing reduction of node `input`; ValueError for a second one.
  void reduce(const FusedReduction& reduction, int input);
  // The node the fused elementwise kernel stores (the reduction's input, when there is one).
  void set_output(int node);

  const std::vector<FusionNode>& nodes() const noexcept { return nodes_; }
  int parameters() const noexcept { return parameters_; }
  int output() const noexcept { return output_; }
  const std::optional<FusedReduction>& reduction() const noexcept { return reduction_; }
  int reduction_input() const noexcept { return reduction_input_; }
  // The operation nodes the output depends on, in the order they were traced (each after its inputs).
  std::vector<int> evaluation_order() const;

 private:
  std::vector<FusionNode> nodes_;
  int parameters_ = 0;
  int output_ = -1;
  std::optional<FusedReduction> reduction_;
  int reduction_input_ = -1;
};

// The fused expression as an ElementwiseKernel (CuPy's parameter lists and operation): the arguments
// `in0`..., the output `out0`, one local per operation in the dtype the unfused operation stores, each
// operand cast (kernels::cast) to the dtype the operation reads, through the same functions the built-in
// loops call (jit_ufuncs.cuh); on GPUs no multiply-add is contracted across two operations.
struct FusedSource {
  std::string in_params, out_params, operation, preamble;
};
FusedSource fused_elementwise_source(const FusionGraph& graph);

}  // namespace xp::detail
