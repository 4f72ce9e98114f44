#pragma once
// The CPU backend's dense factorizations (core/solver_call.hpp), on LAPACK.
#include "core/solver_call.hpp"

namespace xp::detail {

void cpu_solver(const SolverCall& call);

}  // namespace xp::detail
