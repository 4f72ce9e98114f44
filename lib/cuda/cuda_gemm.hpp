#pragma once
// Matrix products on GPUs: cuBLAS for float32 and float64 (cuda_blas.cpp), an exact kernel for bool
// and the integers (cuda_exact_product.cu).
#include "core/gemm_call.hpp"
#include "xp/detail/exec.hpp"

namespace xp::detail {

void cuda_blas_gemm(const GemmCall& call, const Exec& exec);
void cuda_exact_product(const GemmCall& call, const Exec& exec);

}  // namespace xp::detail
