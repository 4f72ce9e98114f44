#include "core/matmul_plan.hpp"

#include <algorithm>
#include <sstream>
#include <string>
#include <utility>

#include "support/shape_check.hpp"
#include "xp/error.hpp"

namespace xp::detail {

namespace {

// NumPy's spelling in these messages: "(2,3)", "(3,)", "()".
std::string compact(const Shape& shape) {
  std::ostringstream out;
  out << '(';
  for (int axis = 0; axis < shape.ndim(); ++axis) out << (axis ? "," : "") << shape[axis];
  if (shape.ndim() == 1) out << ',';
  out << ')';
  return out.str();
}

[[noreturn]] void throw_not_aligned(std::string_view op, const Shape& a, const Shape& b, int a_axis, int b_axis) {
  throw ValueError(std::string(op) + ": shapes " + compact(a) + " and " + compact(b) +
                   " are not aligned: " + std::to_string(a[a_axis]) + " (dim " + std::to_string(a_axis) +
                   ") != " + std::to_string(b[b_axis]) + " (dim " + std::to_string(b_axis) + ")");
}

// The axis of b that a product contracts with a's last: b's only axis, else its second-to-last.
int contracted_axis(const Shape& b) noexcept { return b.ndim() == 1 ? 0 : b.ndim() - 2; }

void check_aligned(std::string_view op, const Shape& a, const Shape& b) {
  const int b_axis = contracted_axis(b);
  if (a[a.ndim() - 1] != b[b_axis]) throw_not_aligned(op, a, b, a.ndim() - 1, b_axis);
}

// The first `count` axes of shape.
Shape leading(const Shape& shape, int count) {
  return Shape(std::span<const std::int64_t>(shape.begin(), static_cast<std::size_t>(std::max(count, 0))));
}

// Drops batch axes of extent 1 and merges neighbours that every operand walks as one, in place.
void squash(GemmBatch& batch) {
  int kept = 0;
  for (int axis = 0; axis < batch.ndim; ++axis) {
    const std::int64_t extent = batch.shape[axis];
    if (extent == 1) continue;
    const int last = kept - 1;
    if (last >= 0 && batch.a[last] == batch.a[axis] * extent && batch.b[last] == batch.b[axis] * extent &&
        batch.c[last] == batch.c[axis] * extent) {
      batch.shape[last] *= extent;
    } else {
      batch.shape[kept] = extent;
      ++kept;
    }
    batch.a[kept - 1] = batch.a[axis];
    batch.b[kept - 1] = batch.b[axis];
    batch.c[kept - 1] = batch.c[axis];
  }
  batch.ndim = kept;
}

// The stride that walks axes [0, count) of a view as one axis (0 when they hold one element), or
// nullopt when no stride does.
std::optional<std::int64_t> flat_stride(const Shape& shape, const Strides& strides, int count) {
  std::optional<std::int64_t> stride;
  std::int64_t inner_extent = 1;  // of the axes after the one looked at, of extent > 1
  for (int axis = count - 1; axis >= 0; --axis) {
    if (shape[axis] == 1) continue;
    if (!stride) {
      stride = strides[axis];
    } else if (strides[axis] != *stride * inner_extent) {
      return std::nullopt;
    }
    inner_extent *= shape[axis];
  }
  return stride.value_or(0);
}

}  // namespace

std::int64_t GemmBatch::count() const noexcept {
  std::int64_t product = 1;
  for (int axis = 0; axis < ndim; ++axis) product *= shape[axis];
  return product;
}

Shape matmul_result_shape(const Shape& a, const Shape& b) {
  for (const auto& [shape, position] : {std::pair{&a, 0}, std::pair{&b, 1}})
    XP_CHECK(shape->ndim() > 0, ValueError, "matmul: operand ", position,
             " is 0-d (shape ()); matmul takes arrays of one or more dimensions (multiply scales by a scalar)");
  check_aligned("matmul", a, b);
  const Shape a_batch = leading(a, a.ndim() - 2), b_batch = leading(b, b.ndim() - 2);
  const int ndim = std::max(a_batch.ndim(), b_batch.ndim());
  Shape result;
  for (int axis = 0; axis < ndim; ++axis) {
    const int from_a = axis - (ndim - a_batch.ndim()), from_b = axis - (ndim - b_batch.ndim());
    const std::int64_t ea = from_a >= 0 ? a_batch[from_a] : 1, eb = from_b >= 0 ? b_batch[from_b] : 1;
    XP_CHECK(ea == eb || ea == 1 || eb == 1, ValueError, "matmul: shapes ", compact(a), " and ", compact(b),
             " do not broadcast: their batch dimensions ", compact(a_batch), " and ", compact(b_batch), " differ at ",
             ea, " (dim ", from_a, ") and ", eb, " (dim ", from_b, ")");
    result.push_back(ea == 1 ? eb : ea);
  }
  if (a.ndim() >= 2) result.push_back(a[a.ndim() - 2]);
  if (b.ndim() >= 2) result.push_back(b[b.ndim() - 1]);
  checked_numel(result, "matmul");  // the batch of one operand times the rows and columns of the other
  return result;
}

bool dot_is_matmul(const Shape& a, const Shape& b) noexcept {
  return a.ndim() < 2 || b.ndim() < 2 || (a.ndim() == 2 && b.ndim() == 2);
}

Shape dot_result_shape(const Shape& a, const Shape& b) {
  if (a.ndim() == 0) return b;
  if (b.ndim() == 0) return a;
  check_aligned("dot", a, b);
  if (dot_is_matmul(a, b)) return matmul_result_shape(a, b);
  const int ndim = a.ndim() + b.ndim() - 2;
  XP_CHECK(ndim <= kMaxNdim, ValueError, "dot: the product of shapes ", a, " and ", b, " would have ", ndim,
           " dimensions; arrays have at most ", kMaxNdim);
  Shape result = leading(a, a.ndim() - 1);
  for (int axis = 0; axis < b.ndim() - 2; ++axis) result.push_back(b[axis]);
  result.push_back(b[b.ndim() - 1]);
  checked_numel(result, "dot");
  return result;
}

void matmul_layout(const Shape& a_shape, const Strides& a_strides, const Shape& b_shape, const Strides& b_strides,
                   const Strides& c_strides, GemmLayout& layout) {
  const int a_ndim = a_shape.ndim(), b_ndim = b_shape.ndim();
  // A 1-D a is one row, a 1-D b one column; the axis they lack has no stride in c either.
  layout.k = a_shape[a_ndim - 1];
  layout.a.cols = a_strides[a_ndim - 1];
  layout.m = a_ndim >= 2 ? a_shape[a_ndim - 2] : 1;
  layout.a.rows = a_ndim >= 2 ? a_strides[a_ndim - 2] : 0;
  layout.n = b_ndim >= 2 ? b_shape[b_ndim - 1] : 1;
  layout.b = b_ndim >= 2 ? MatrixStrides{b_strides[b_ndim - 2], b_strides[b_ndim - 1]} : MatrixStrides{b_strides[0], 0};
  layout.c = {};
  const int c_ndim = c_strides.ndim();
  const int batch_ndim = c_ndim - (a_ndim >= 2) - (b_ndim >= 2);
  int c_axis = batch_ndim;
  if (a_ndim >= 2) layout.c.rows = c_strides[c_axis++];
  if (b_ndim >= 2) layout.c.cols = c_strides[c_axis];

  GemmBatch& batch = layout.batch;
  batch.ndim = batch_ndim;
  for (int axis = 0; axis < batch_ndim; ++axis) {
    const int from_a = axis - (batch_ndim - std::max(a_ndim - 2, 0));
    const int from_b = axis - (batch_ndim - std::max(b_ndim - 2, 0));
    const std::int64_t ea = from_a >= 0 ? a_shape[from_a] : 1, eb = from_b >= 0 ? b_shape[from_b] : 1;
    batch.shape[axis] = std::max(ea, eb) == 1 ? 1 : (ea == 1 ? eb : ea);
    batch.a[axis] = ea == 1 ? 0 : a_strides[from_a];
    batch.b[axis] = eb == 1 ? 0 : b_strides[from_b];
    batch.c[axis] = c_strides[axis];
  }
  squash(batch);
}

bool dot_layout(const Shape& a_shape, const Strides& a_strides, const Shape& b_shape, const Strides& b_strides,
                const Strides& c_strides, GemmLayout& layout) {
  const int a_lead = a_shape.ndim() - 1, b_ndim = b_shape.ndim();
  // c's leading axes are a's.
  const std::optional<std::int64_t> a_rows = flat_stride(a_shape, a_strides, a_lead);
  const std::optional<std::int64_t> c_rows = flat_stride(a_shape, c_strides, a_lead);
  if (!a_rows || !c_rows) return false;
  layout.m = numel(leading(a_shape, a_lead));
  layout.k = a_shape[a_lead];
  layout.n = b_shape[b_ndim - 1];
  layout.a = {*a_rows, a_strides[a_lead]};
  layout.b = {b_strides[b_ndim - 2], b_strides[b_ndim - 1]};
  layout.c = {*c_rows, c_strides[c_strides.ndim() - 1]};
  GemmBatch& batch = layout.batch;
  batch.ndim = b_ndim - 2;
  for (int axis = 0; axis < batch.ndim; ++axis) {
    batch.shape[axis] = b_shape[axis];
    batch.a[axis] = 0;
    batch.b[axis] = b_strides[axis];
    batch.c[axis] = c_strides[a_lead + axis];
  }
  squash(batch);
  return true;
}

std::optional<BlasMatrix> blas_matrix(std::int64_t rows, std::int64_t cols, MatrixStrides strides) noexcept {
  // The stride of an axis of extent 1 is never used; the leading dimension must still be >= 1 and
  // cover a whole row (column) so that BLAS accepts it.
  if ((cols == 1 || strides.cols == 1) && (rows == 1 || strides.rows >= std::max<std::int64_t>(cols, 1)))
    return BlasMatrix{false, rows == 1 ? std::max<std::int64_t>(cols, 1) : strides.rows};
  if ((rows == 1 || strides.rows == 1) && (cols == 1 || strides.cols >= std::max<std::int64_t>(rows, 1)))
    return BlasMatrix{true, cols == 1 ? std::max<std::int64_t>(rows, 1) : strides.cols};
  return std::nullopt;
}

void transpose(GemmLayout& layout) noexcept {
  std::swap(layout.m, layout.n);
  const MatrixStrides a = layout.a;
  layout.a = {layout.b.cols, layout.b.rows};
  layout.b = {a.cols, a.rows};
  layout.c = {layout.c.cols, layout.c.rows};
  for (int axis = 0; axis < layout.batch.ndim; ++axis) std::swap(layout.batch.a[axis], layout.batch.b[axis]);
}

}  // namespace xp::detail
