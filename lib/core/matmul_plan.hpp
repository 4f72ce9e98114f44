#pragma once
// NumPy's matmul and dot as batches of matrix products: the shape rules with their error texts, and
// the strides each product walks, from which BLAS's transpose flags and leading dimensions follow.
// Pure functions of shapes and strides (in elements), shared by every backend.
#include <cstdint>
#include <optional>

#include "xp/host_device.hpp"
#include "xp/shape.hpp"

namespace xp::detail {

// Where the elements of a matrix lie: element (i, j) at i * rows + j * cols.
struct MatrixStrides {
  std::int64_t rows = 0;
  std::int64_t cols = 0;
};

// A matrix as row-major BLAS reads it: stored as itself (element (i, j) at i * ld + j) or as its
// transpose (at j * ld + i).
struct BlasMatrix {
  bool transposed = false;
  std::int64_t ld = 1;
};

// The positions of a batch of products, C order, with each operand's stride per batch axis. Plain
// arrays (CUDA kernels take it by value), set only up to ndim: a small call does not clear 512 bytes.
struct GemmBatch {
  struct Offsets {
    std::int64_t a = 0, b = 0, c = 0;
  };
  int ndim = 0;
  std::int64_t shape[kMaxNdim], a[kMaxNdim], b[kMaxNdim], c[kMaxNdim];  // NOLINT: set up to ndim

  std::int64_t count() const noexcept;
  // The element offsets of product `index`.
  XP_HOST_DEVICE Offsets offsets(std::int64_t index) const noexcept {
    Offsets at;
    for (int axis = ndim - 1; axis >= 0; --axis) {
      const std::int64_t position = index % shape[axis];
      index /= shape[axis];
      at.a += position * a[axis];
      at.b += position * b[axis];
      at.c += position * c[axis];
    }
    return at;
  }
};

// C (m x n) = A (m x k) . B (k x n) at every position of the batch.
struct GemmLayout {
  std::int64_t m = 0, n = 0, k = 0;
  MatrixStrides a, b, c;
  GemmBatch batch;
};

// NumPy's result shapes. ValueError with the shapes and axes: 0-d operands to matmul, core
// dimensions that differ ("matmul: shapes (2,3) and (4,5) are not aligned: 3 (dim 1) != 4 (dim 0)"),
// batch dimensions that do not broadcast.
Shape matmul_result_shape(const Shape& a, const Shape& b);
Shape dot_result_shape(const Shape& a, const Shape& b);

// dot(a, b) is matmul(a, b) unless both operands have two or more axes and one has more than two:
// then dot pairs every matrix-row of a with every matrix of b (no broadcasting).
bool dot_is_matmul(const Shape& a, const Shape& b) noexcept;

// The products of matmul(a, b) written to c, a view of the result shape (no empty operand). Written
// into `layout`, which is large: a small product's plan is not copied around.
void matmul_layout(const Shape& a_shape, const Strides& a_strides, const Shape& b_shape, const Strides& b_strides,
                   const Strides& c_strides, GemmLayout& layout);

// The products of dot(a, b) for two operands of two or more axes, written to c: a's leading axes are
// walked as the rows of one matrix, as are c's. Nullopt when a's or c's leading axes cannot be
// walked with one stride (then a contiguous copy of that operand can): then false.
bool dot_layout(const Shape& a_shape, const Strides& a_strides, const Shape& b_shape, const Strides& b_strides,
                const Strides& c_strides, GemmLayout& layout);

// How BLAS reads a rows x cols matrix with these strides; nullopt when it cannot (elements not in
// rows or columns of unit stride, negative or overlapping steps): then it is copied first.
std::optional<BlasMatrix> blas_matrix(std::int64_t rows, std::int64_t cols, MatrixStrides strides) noexcept;

// Makes the layout compute the same products as C^T = B^T . A^T: how a result stored as a transpose
// is computed.
void transpose(GemmLayout& layout) noexcept;

}  // namespace xp::detail
