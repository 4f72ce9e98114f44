// matmul and dot: NumPy's shape rules (core/matmul_plan.cpp), operands converted to the result dtype,
// copied only when BLAS cannot read them as they lie, and one gemm call for the whole batch.
#include <array>

#include "api/array/array_factory.hpp"
#include "api/array/device_services.hpp"
#include "api/array/overlap.hpp"
#include "core/matmul_plan.hpp"
#include "xp/linalg.hpp"
#include "xp/profile.hpp"
#include "xp/promotion.hpp"

namespace xp::detail {

namespace {

std::string_view product_name(Product kind) { return kind == Product::matmul ? "matmul" : "dot"; }

void check_out(std::string_view op, const ArrayCore& out, const Shape& shape, xp::dtype type, Device device) {
  XP_CHECK(out.device() == device, DeviceMismatchError, op, ": out is on ", out.device(), " but the operands are on ",
           device);
  XP_CHECK(out.shape() == shape, ValueError, op, ": out has shape ", out.shape(), " but the result has shape ", shape);
  XP_CHECK(out.dtype() == type, TypeError, op, ": out is ", out.dtype(), " but the result is ", type);
  XP_CHECK(!has_repeated_elements(out), ValueError, op,
           ": out is a broadcast view, several of its positions share one element");
  note_write(out);
}

// Whether the products could be laid out (dot: not when a's or c's leading axes do not merge).
bool layout_of(Product kind, const ArrayCore& a, const ArrayCore& b, const ArrayCore& c, GemmLayout& layout) {
  if (kind == Product::matmul || dot_is_matmul(a.shape(), b.shape())) {
    matmul_layout(a.shape(), a.strides(), b.shape(), b.strides(), c.strides(), layout);
    return true;
  }
  return dot_layout(a.shape(), a.strides(), b.shape(), b.strides(), c.strides(), layout);
}

// The products into c, copying an operand BLAS cannot read as it lies (and computing into a new
// array when c is such an operand). Returns the array the products were written to.
ArrayCore run_products(Product kind, ArrayCore a, ArrayCore b, const ArrayCore& c, const Exec& exec) {
  ArrayCore target = c;
  GemmLayout layout;
  if (!layout_of(kind, a, b, target, layout)) {
    a = contiguous(a, exec);
    if (!target.is_contiguous()) target = new_array(c.shape(), c.dtype(), exec);
    layout_of(kind, a, b, target, layout);
  }
  const bool copy_a = !blas_matrix(layout.m, layout.k, layout.a);
  const bool copy_b = !blas_matrix(layout.k, layout.n, layout.b);
  const bool new_c = !blas_matrix(layout.m, layout.n, layout.c);
  if (copy_a || copy_b || new_c) {
    if (copy_a) a = contiguous(a, exec);
    if (copy_b) b = contiguous(b, exec);
    if (new_c) target = new_array(c.shape(), c.dtype(), exec);
    layout_of(kind, a, b, target, layout);
  }
  const bool swapped = blas_matrix(layout.m, layout.n, layout.c)->transposed;
  if (swapped) transpose(layout);
  const ArrayCore& first = swapped ? b : a;
  const ArrayCore& second = swapped ? a : b;
  const GemmCall call{.type = c.dtype(),
                      .m = layout.m,
                      .n = layout.n,
                      .k = layout.k,
                      .a = first.raw_data(),
                      .a_form = *blas_matrix(layout.m, layout.k, layout.a),
                      .b = second.raw_data(),
                      .b_form = *blas_matrix(layout.k, layout.n, layout.b),
                      .c = target.raw_data(),
                      .ldc = blas_matrix(layout.m, layout.n, layout.c)->ld,
                      .batch = layout.batch,
                      // The device's pool even during xp::capture: cuBLAS keeps its workspace from it.
                      .pool = exec.device.is_gpu() ? &get_default_memory_pool(exec.device) : nullptr};
  order_access(exec, {&a, &b, &target});
  kernels_for(exec.device).gemm(call, exec);
  return target;
}

}  // namespace

ArrayCore product(Product kind, const ArrayCore& a, const ArrayCore& b, const ArrayCore* out) {
  const std::string_view op = product_name(kind);
  const profile_range profiled(op);
  const std::array<const ArrayCore*, 2> operands{&a, &b};
  const Device device = common_device(op, operands);
  const xp::dtype type = promote_types(a.dtype(), b.dtype());
  const Shape shape =
      kind == Product::matmul ? matmul_result_shape(a.shape(), b.shape()) : dot_result_shape(a.shape(), b.shape());
  if (out) check_out(op, *out, shape, type, device);
  if (kind == Product::dot && (a.ndim() == 0 || b.ndim() == 0)) {
    const std::array<Operand, 2> factors{Operand{&a, {}}, Operand{&b, {}}};
    if (!out) return elementwise(ElementwiseOp::multiply, factors);
    elementwise(ElementwiseOp::multiply, factors, *out);
    return *out;
  }

  const Exec exec = exec_on(device);
  // 2-byte floats accumulate in float32 and round once at the end (as cuBLAS's and PyTorch's half
  // products): cuBLAS takes them as they are; host BLAS multiplies float32 copies.
  const xp::dtype compute = kernels_for(device).multiplies(type) ? type : xp::dtype::float32;
  // An out that shares memory with an operand, or of another dtype than the products, receives the
  // result from a new array.
  const bool direct = out && compute == type && !may_overlap(*out, a) && !may_overlap(*out, b);
  const ArrayCore result = direct ? *out : new_array(shape, compute, exec);
  const std::int64_t k = a.shape()[a.ndim() - 1];
  if (result.size() != 0) {
    if (k == 0) {
      alignas(8) constexpr unsigned char zero[16] = {};  // every element size's zero
      kernels_for(device).fill(view_of(result, exec), zero, exec);
    } else {
      const ArrayCore written = run_products(kind, a.dtype() == compute ? a : astype(a, compute),
                                             b.dtype() == compute ? b : astype(b, compute), result, exec);
      if (written.raw_data() != result.raw_data()) copy_into(written, result);
    }
  }
  const ArrayCore rounded = compute == type ? result : astype(result, type);
  if (out && !direct) copy_into(rounded, *out);
  return out ? *out : rounded;
}

}  // namespace xp::detail
