#pragma once
// A batch of matrix products as a backend receives it: every operand already in a form BLAS reads
// (core/matmul_plan.hpp), the result row-major.
#include <climits>
#include <cstdint>
#include <string_view>

#include "core/matmul_plan.hpp"
#include "xp/dtype.hpp"
#include "xp/error.hpp"
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

// `value` as one of the 32-bit integers of BLAS interfaces; ValueError naming `blas` when it does not fit.
inline int blas_int(std::int64_t value, std::string_view what, std::string_view blas) {
  XP_CHECK(value <= INT_MAX, ValueError, "matmul: ", what, " ", value, " exceeds the 32-bit integers of ", blas);
  return static_cast<int>(value);
}

// A call's extents and leading dimensions as BLAS takes them.
struct BlasInts {
  int m, n, k, lda, ldb, ldc;
};
inline BlasInts blas_ints(const GemmCall& call, std::string_view blas) {
  return {blas_int(call.m, "dimension", blas),
          blas_int(call.n, "dimension", blas),
          blas_int(call.k, "dimension", blas),
          blas_int(call.a_form.ld, "leading dimension", blas),
          blas_int(call.b_form.ld, "leading dimension", blas),
          blas_int(call.ldc, "leading dimension", blas)};
}

// The strides of a matrix BLAS reads in this form.
inline MatrixStrides strides_of(BlasMatrix form) noexcept {
  return form.transposed ? MatrixStrides{1, form.ld} : MatrixStrides{form.ld, 1};
}

}  // namespace xp::detail
