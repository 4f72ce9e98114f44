#pragma once
/// \file
/// The options of a run-time user kernel (xp::ElementwiseKernel, xp::ReductionKernel in
/// user_kernel.hpp), apart so that the source generator needs no arrays.
#include <optional>
#include <string>

#include "xp/export.hpp"

namespace xp {

/// What a user kernel's source is made of beyond its operation (CuPy's options of the same names).
struct XP_API KernelOptions {
  std::string preamble;  ///< code placed before the kernel (helper functions, constants)
  std::string loop_prep;  ///< elementwise: code run before the loop
  std::string after_loop;  ///< elementwise: code run after the loop
  bool reduce_dims = true;  ///< merge axes that walk memory as one before generating the kernel
  std::string reduce_type;  ///< reductions: the type of a and b (default: the first output's)
  std::optional<int> block_size;  ///< GPU threads per block (elementwise 128, reductions 256)
};

}  // namespace xp
