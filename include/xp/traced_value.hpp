#pragma once
/// \file
/// xp::TracedValue: what a function given to xp::fuse receives instead of arrays while it is traced
/// (fuse.hpp). The array functions of math.hpp and reductions.hpp take it as they take arrays: each
/// call adds one operation, with the dtypes the same call on arrays would compute in and return, to
/// the expression the fused kernel evaluates. Scalars mix in as with arrays (weakly, as NumPy 2).
#include <array>
#include <cstdint>
#include <memory>
#include <span>
#include <type_traits>

#include "xp/axes.hpp"
#include "xp/detail/elementwise_ops.hpp"
#include "xp/detail/reduction_ops.hpp"
#include "xp/dtype.hpp"
#include "xp/export.hpp"
#include "xp/ndarray.hpp"

namespace xp {

/// \cond DETAIL
namespace detail {
class FusionGraph;
}  // namespace detail
/// \endcond

/// One value of a fused function's expression: an argument, or the result of operations on them.
class TracedValue {
 public:
  /// A value of `graph` (made by the library while it traces).
  TracedValue(std::shared_ptr<detail::FusionGraph> graph, int node, xp::dtype type, int ndim)
      : graph_(std::move(graph)), node_(node), type_(type), ndim_(ndim) {}
  /// The dtype the value has, as the unfused operations would give it.
  xp::dtype dtype() const noexcept { return type_; }
  /// Its rank: the broadcast rank of the arguments it comes from (a reduction's result: after it).
  int ndim() const noexcept { return ndim_; }
  /// The value converted to `type`, as ndarray::astype converts (NumPy's unsafe casting).
  TracedValue astype(xp::dtype type) const;
  /// \cond DETAIL
  const std::shared_ptr<detail::FusionGraph>& graph() const noexcept { return graph_; }
  int node() const noexcept { return node_; }
  /// \endcond

 private:
  std::shared_ptr<detail::FusionGraph> graph_;
  int node_;
  xp::dtype type_;
  int ndim_;
};

/// \cond DETAIL
namespace detail {

template <class A>
concept traced = std::is_same_v<A, TracedValue>;
/// What the array functions take: arrays, and traced values while xp::fuse traces.
template <class A>
concept elementwise_face = array_face<A> || traced<A>;
template <class A>
concept elementwise_operand = math_operand<A> || traced<A>;
template <class... A>
concept has_elementwise_face = (... || elementwise_face<A>);

/// An operand of a traced operation: a traced value, or a scalar.
struct XP_API TracedOperand {
  const TracedValue* value = nullptr;  ///< null: the scalar
  ScalarValue scalar;
};

/// The traced operation (lib/core/fusion_graph.cpp): its dtypes and NumPy's TypeError for an operation
/// the dtypes do not have, at trace time.
XP_API TracedValue trace_elementwise(ElementwiseOp op, std::span<const TracedOperand> operands);
/// The traced conversion of TracedValue::astype.
XP_API TracedValue trace_cast(const TracedValue& x, xp::dtype type);
/// The fused function's one trailing reduction.
XP_API TracedValue trace_reduction(Reduction r, const TracedValue& x, const Axes& axes, bool keepdims,
                                   std::int64_t ddof);

template <class A>
TracedOperand to_traced_operand(const A& a) {
  static_assert(!array_face<A>, "xp::fuse: pass every array as an argument of the fused function");
  if constexpr (traced<A>) return {&a, {}};
  else return {nullptr, scalar_value(a)};
}

/// The traced form of apply_elementwise (ndarray.hpp): chosen when an operand is a traced value.
template <ElementwiseOp op, class... A>
  requires(... || traced<A>)
TracedValue apply_elementwise(const A&... operands) {
  const std::array<TracedOperand, sizeof...(A)> list{to_traced_operand(operands)...};
  return trace_elementwise(op, list);
}

/// The traced form of apply_reduction.
template <Reduction r, traced A>
TracedValue apply_reduction(const A& a, const Axes& axes, bool keepdims, std::int64_t ddof) {
  return trace_reduction(r, a, axes, keepdims, ddof);
}

}  // namespace detail
/// \endcond

inline TracedValue TracedValue::astype(xp::dtype type) const { return detail::trace_cast(*this, type); }

}  // namespace xp
