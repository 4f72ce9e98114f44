#pragma once
// The CUDA backend's dense factorizations (core/solver_call.hpp), on cuSOLVER.
#include "core/solver_call.hpp"
#include "xp/detail/exec.hpp"

namespace xp::detail {

void cuda_solver(const SolverCall& call, const Exec& exec);

}  // namespace xp::detail
