#pragma once
// What each symbol operation does: its shape rule (for infer_shape) and its forward, which is the
// public function of the same operation (recorded by autograd when a record scope is open).
#include <optional>
#include <span>
#include <vector>

#include "symbol/graph.hpp"
#include "xp/ndarray.hpp"

namespace xp::sym {

// The output shape of `node` from its inputs' shapes. An unknown shape that the rule determines (a
// weight's, from the data) is filled in; a known one that disagrees with the rule is a ValueError
// naming the input, the operation and both shapes; an unknown one the rule needs is a ValueError too.
Shape infer_output(const Node& node, std::vector<std::optional<Shape>>& inputs);

// The output of `node` for these input values.
ndarray<> forward(const Node& node, std::span<const ndarray<>> inputs);

}  // namespace xp::sym
