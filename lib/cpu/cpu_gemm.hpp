#pragma once
// Matrix products on cpu devices (cpu_gemm.cpp): CBLAS from OpenBLAS for float32 and float64 (small
// products on the loop of small_gemm.hpp), an exact loop for bool and the integers.
#include "core/gemm_call.hpp"

namespace xp::detail {

void cpu_gemm(const GemmCall& call);

}  // namespace xp::detail
