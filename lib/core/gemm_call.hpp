#pragma once
// A batch of matrix products as a backend receives it: every operand already in a form BLAS reads
// (core/matmul_plan.hpp), the result row-major.
#include <cstdint>

#include "core/matmul_plan.hpp"
#include "xp/dtype.hpp"
#include "xp/memory_pool.hpp"

namespace xp::detail {

struct GemmCall {
  xp::dtype type;  // of every operand
  std::int64_t m = 0, n = 0, k = 0;  // none of them 0
  const void* a = nullptr;
  BlasMatrix a_form;
  const void* b = nullptr;
  BlasMatrix b_form;
  void* c = nullptr;
  std::int64_t ldc = 1;
  const GemmBatch& batch;  // offsets in elements from a, b and c
  MemoryPool* pool = nullptr;  // the device's pool, for workspace
};

// The strides of a matrix BLAS reads in this form.
inline MatrixStrides strides_of(BlasMatrix form) noexcept {
  return form.transposed ? MatrixStrides{1, form.ld} : MatrixStrides{form.ld, 1};
}

}  // namespace xp::detail
