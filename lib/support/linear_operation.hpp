#pragma once
// Autograd for an operation of a library beside libxparray (xp::fft's transforms), linear in its one
// input: its backward applies the adjoint to the output's gradient, so the library gives that alone.
#include <functional>
#include <string>

#include "xp/export.hpp"
#include "xp/ndarray.hpp"

namespace xp::detail {

// Maps the gradient of the output to that of the input (the input's shape and dtype).
using Adjoint = std::function<ArrayCore(const ArrayCore& output_gradient)>;

// `output`, computed from `input` unrecorded; recorded as the operation `name` when autograd records and
// `input` needs a gradient.
XP_API ArrayCore record_linear(std::string name, const ArrayCore& input, const ArrayCore& output, Adjoint adjoint);

}  // namespace xp::detail
