#pragma once
// A gather through an index, recorded for backward (lib/autograd/indexing.cpp): the gradient is
// scatter_add of the output's gradient into zeros of the input's shape.
#include <string_view>
#include <vector>

#include "xp/kernels/indexed_access.hpp"
#include "xp/ndarray.hpp"

namespace xp::detail {

ArrayCore recorded_gather(const ArrayCore& a, std::vector<Index> indices, kernels::IndexMode mode, std::string_view op);

}  // namespace xp::detail
