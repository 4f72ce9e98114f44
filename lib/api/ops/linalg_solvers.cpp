// The solvers' computations: each stack of matrices copied into a fresh buffer in LAPACK's order (each
// matrix column-major: the C-contiguous copy of the stack with its last two axes swapped), one batch of
// factorizations on the device (DeviceKernels::solver), results seen back through the same swap. The
// matrices' statuses are read back once per call, after everything is queued.
#include <array>
#include <vector>

#include "api/array/array_factory.hpp"
#include "api/array/device_services.hpp"
#include "api/array/diagonal_view.hpp"
#include "core/layout.hpp"
#include "xp/linalg_solvers.hpp"
#include "xp/profile.hpp"
#include "xp/promotion.hpp"

namespace xp::detail {

namespace {

ArrayCore with_last_two_swapped(const ArrayCore& a) { return transpose(a, last_two_swapped(a.ndim())); }

// A fresh buffer of the matrices in LAPACK's order, in `type`: shape (..., columns, rows).
ArrayCore lapack_copy(const ArrayCore& a, xp::dtype type) { return astype(with_last_two_swapped(a), type); }

Shape batch_shape(const Shape& shape, int core_axes) {
  Shape batch;
  for (int axis = 0; axis < shape.ndim() - core_axes; ++axis) batch.push_back(shape[axis]);
  return batch;
}

Shape with(Shape shape, std::initializer_list<std::int64_t> extents) {
  for (const std::int64_t extent : extents) shape.push_back(extent);
  return shape;
}

Operand operand(const ArrayCore& a) { return {&a, {}}; }
Operand operand(double value) { return {nullptr, scalar_value(value)}; }

ArrayCore apply(ElementwiseOp op, std::initializer_list<Operand> operands) {
  return elementwise(op, std::span(operands.begin(), operands.size()));
}

// One batch of factorizations on exec's device, after the access gate of every array it touches.
void run_solver(SolverCall call, const Exec& exec, std::initializer_list<const ArrayCore*> arrays) {
  if (call.batch == 0) return;
  order_access(exec, arrays);
  call.pool = exec.device.is_gpu() ? &scratch_pool(exec) : nullptr;
  kernels_for(exec.device).solver(call, exec);
}

// Reads the statuses back (the call's one synchronisation): LinAlgError `message` for a positive one.
void check_statuses(const ArrayCore& info, std::string_view message) {
  if (info.size() == 0) return;
  std::vector<std::int32_t> statuses(static_cast<std::size_t>(info.size()));
  copy_to_host(info, statuses.data(), "a linalg factorization's status check");
  for (const std::int32_t status : statuses) {
    XP_ASSERT(status >= 0);
    XP_CHECK(status == 0, LinAlgError, message);
  }
}

ArrayCore statuses_for(std::int64_t batch, const Exec& exec) { return new_array({batch}, xp::dtype::int32, exec); }

// 0, 1, ..., n - 1 in int64 on exec's device.
ArrayCore positions(std::int64_t n, const Exec& exec) {
  ArrayCore out = new_array({n}, xp::dtype::int64, exec);
  if (n > 0) kernels_for(exec.device).iota(view_of(out, exec), IotaRange{true, 0, 1, 0, 0}, exec);
  return out;
}

// x with the elements above the diagonal (above_diagonal) or below it set to zero.
ArrayCore triangle(const ArrayCore& x, bool upper, const Exec& exec) {
  const std::int64_t rows = x.shape()[x.ndim() - 2], columns = x.shape()[x.ndim() - 1];
  const ArrayCore row = reshape(positions(rows, exec), {rows, 1}),
                  column = reshape(positions(columns, exec), {1, columns});
  const ArrayCore outside =
      apply(upper ? ElementwiseOp::less : ElementwiseOp::greater, {operand(column), operand(row)});
  return apply(ElementwiseOp::where, {operand(outside), operand(0.0), operand(x)});
}

// The identity matrices of a stack of shape (..., n, n), in `type`.
ArrayCore identities(const Shape& shape, xp::dtype type, const Exec& exec) {
  const std::int64_t n = shape[shape.ndim() - 1];
  ArrayCore eye = new_array({n, n}, type, exec);
  alignas(16) std::array<unsigned char, 16> zero{}, one{};
  visit_dtype(type, [&]<class T>(std::type_identity<T>) { *reinterpret_cast<T*>(one.data()) = T(1); });
  kernels_for(exec.device).fill(view_of(eye, exec), zero.data(), exec);
  if (n > 0) kernels_for(exec.device).fill(view_of(diagonal(eye, 0, 0, 1), exec), one.data(), exec);
  return broadcast_to(eye, shape);
}

}  // namespace

xp::dtype solver_dtype(std::string_view op, xp::dtype type) {
  XP_CHECK(!is_two_byte_float(type), TypeError, op, ": array type ", type, " is unsupported in linalg");
  return is_inexact_dtype(type) ? type : xp::dtype::float64;
}

LuParts lu_factor(const ArrayCore& a) {
  const xp::dtype type = solver_dtype("lu_factor", a.dtype());
  const std::int64_t n = a.shape()[a.ndim() - 1];
  const Exec exec = exec_on(a.device());
  const Shape batch = batch_shape(a.shape(), 2);
  ArrayCore buffer = lapack_copy(a, type);
  ArrayCore pivots = new_array(with(batch, {n}), xp::dtype::int64, exec);
  const ArrayCore info = statuses_for(numel(batch), exec);
  run_solver({.routine = SolverRoutine::lu_factor,
              .type = type,
              .batch = n ? numel(batch) : 0,
              .rows = n,
              .n = n,
              .a = buffer.raw_data(),
              .pivots = static_cast<std::int64_t*>(pivots.raw_data()),
              .info = static_cast<std::int32_t*>(info.raw_data())},
             exec, {&buffer, &pivots, &info});
  return {with_last_two_swapped(buffer), pivots};
}

ArrayCore solve(const ArrayCore& a, const ArrayCore& b) {
  const profile_range profiled("solve");
  const xp::dtype type = promote_types(solver_dtype("solve", a.dtype()), solver_dtype("solve", b.dtype()));
  const std::int64_t n = a.shape()[a.ndim() - 1], columns = b.shape()[b.ndim() - 1];
  const Shape batch_a = batch_shape(a.shape(), 2), batch_b = batch_shape(b.shape(), 2);
  const std::array<const Shape*, 2> batches{&batch_a, &batch_b};
  const Shape batch = broadcast_shapes("solve", batches);
  const Exec exec = exec_on(a.device());
  ArrayCore factors = lapack_copy(broadcast_to(a, with(batch, {n, n})), type);
  ArrayCore x = lapack_copy(broadcast_to(b, with(batch, {n, columns})), type);
  ArrayCore pivots = new_array(with(batch, {n}), xp::dtype::int64, exec);
  const ArrayCore info = statuses_for(numel(batch), exec), solve_info = statuses_for(numel(batch), exec);
  SolverCall call{.routine = SolverRoutine::lu_factor,
                  .type = type,
                  .batch = n ? numel(batch) : 0,
                  .rows = n,
                  .n = n,
                  .a = factors.raw_data(),
                  .b = x.raw_data(),
                  .columns = columns,
                  .pivots = static_cast<std::int64_t*>(pivots.raw_data()),
                  .info = static_cast<std::int32_t*>(info.raw_data())};
  run_solver(call, exec, {&factors, &pivots, &info});
  call.routine = SolverRoutine::lu_solve;
  call.info = static_cast<std::int32_t*>(solve_info.raw_data());
  if (columns > 0) run_solver(call, exec, {&factors, &pivots, &x, &solve_info});
  check_statuses(info, "Singular matrix");
  return with_last_two_swapped(x);
}

ArrayCore inverse(const ArrayCore& a) {
  const xp::dtype type = solver_dtype("inv", a.dtype());
  return solve(a, identities(a.shape(), type, exec_on(a.device())));
}

ArrayCore cholesky(const ArrayCore& a) {
  const profile_range profiled("cholesky");
  const xp::dtype type = solver_dtype("cholesky", a.dtype());
  const std::int64_t n = a.shape()[a.ndim() - 1];
  const Exec exec = exec_on(a.device());
  const std::int64_t batch = numel(batch_shape(a.shape(), 2));
  ArrayCore buffer = lapack_copy(a, type);
  const ArrayCore info = statuses_for(batch, exec);
  run_solver({.routine = SolverRoutine::cholesky,
              .type = type,
              .batch = n ? batch : 0,
              .rows = n,
              .n = n,
              .a = buffer.raw_data(),
              .info = static_cast<std::int32_t*>(info.raw_data())},
             exec, {&buffer, &info});
  const ArrayCore lower = triangle(with_last_two_swapped(buffer), false, exec);
  check_statuses(info, "Matrix is not positive definite");
  return lower;
}

namespace {

// (-1) ** (the number of rows LU's pivots swapped), one a matrix, in `type`.
ArrayCore pivot_signs(const ArrayCore& pivots, xp::dtype type, const Exec& exec) {
  const std::int64_t n = pivots.shape()[pivots.ndim() - 1];
  const ArrayCore unswapped = apply(ElementwiseOp::add, {operand(positions(n, exec)), operand(1.0)});
  const ArrayCore swaps =
      reduce(Reduction::sum, apply(ElementwiseOp::not_equal, {operand(pivots), operand(unswapped)}), -1, false, 0);
  const ArrayCore odd = apply(ElementwiseOp::mod, {operand(swaps), operand(2.0)});
  const ArrayCore sign = apply(ElementwiseOp::subtract,
                               {operand(1.0), operand(apply(ElementwiseOp::multiply, {operand(odd), operand(2.0)}))});
  return astype(sign, type);
}

}  // namespace

ArrayCore det(const ArrayCore& a) {
  const profile_range profiled("det");
  const LuParts lu = lu_factor(a);
  const Exec exec = exec_on(a.device());
  const ArrayCore product = reduce(Reduction::prod, diagonal(lu.lu, 0, -2, -1), -1, false, 0);
  return apply(ElementwiseOp::multiply, {operand(product), operand(pivot_signs(lu.pivots, product.dtype(), exec))});
}

SlogdetParts slogdet(const ArrayCore& a) {
  const profile_range profiled("slogdet");
  const LuParts lu = lu_factor(a);
  const Exec exec = exec_on(a.device());
  const ArrayCore d = diagonal(lu.lu, 0, -2, -1);
  const ArrayCore magnitude = apply(ElementwiseOp::abs, {operand(d)});
  const ArrayCore logabsdet = reduce(Reduction::sum, apply(ElementwiseOp::log, {operand(magnitude)}), -1, false, 0);
  // Each diagonal element's sign (d / |d|, 0 for 0), their product, and the pivots' sign.
  const ArrayCore zero = apply(ElementwiseOp::equal, {operand(magnitude), operand(0.0)});
  const ArrayCore unit =
      apply(ElementwiseOp::where,
            {operand(zero), operand(0.0), operand(apply(ElementwiseOp::divide, {operand(d), operand(magnitude)}))});
  const ArrayCore product = reduce(Reduction::prod, unit, -1, false, 0);
  const ArrayCore sign =
      apply(ElementwiseOp::multiply, {operand(product), operand(pivot_signs(lu.pivots, d.dtype(), exec))});
  return {sign, logabsdet};
}

EighParts eigh(const ArrayCore& a, bool upper, bool vectors) {
  const profile_range profiled(vectors ? "eigh" : "eigvalsh");
  const xp::dtype type = solver_dtype("eigh", a.dtype());
  const std::int64_t n = a.shape()[a.ndim() - 1];
  const Exec exec = exec_on(a.device());
  const Shape batch = batch_shape(a.shape(), 2);
  ArrayCore buffer = lapack_copy(a, type);
  ArrayCore values = new_array(with(batch, {n}), real_part_type(type), exec);
  const ArrayCore info = statuses_for(numel(batch), exec);
  run_solver({.routine = SolverRoutine::eigh,
              .type = type,
              .batch = n ? numel(batch) : 0,
              .rows = n,
              .n = n,
              .a = buffer.raw_data(),
              .values = values.raw_data(),
              .vectors = vectors ? SingularVectors::complete : SingularVectors::none,
              .upper = upper,
              .info = static_cast<std::int32_t*>(info.raw_data())},
             exec, {&buffer, &values, &info});
  check_statuses(info, "Eigenvalues did not converge");
  return {values, vectors ? with_last_two_swapped(buffer) : ArrayCore()};
}

SvdParts svd(const ArrayCore& a, bool compute_uv, bool full_matrices) {
  const profile_range profiled("svd");
  const xp::dtype type = solver_dtype("svd", a.dtype());
  const std::int64_t m = a.shape()[a.ndim() - 2], n = a.shape()[a.ndim() - 1];
  // LAPACK's order for rows >= columns; a wide matrix is factored as its conjugate transpose, whose
  // C-order copy is that transpose's column-major buffer: a^H = U' S V'^H gives a = V' S U'^H.
  const bool wide = m < n;
  const std::int64_t rows = wide ? n : m, columns = wide ? m : n;
  const Exec exec = exec_on(a.device());
  const Shape batch = batch_shape(a.shape(), 2);
  ArrayCore buffer =
      wide ? astype(is_complex(type) ? apply(ElementwiseOp::conj, {operand(a)}) : a, type) : lapack_copy(a, type);
  const std::int64_t u_columns = full_matrices ? rows : columns;
  ArrayCore s = new_array(with(batch, {columns}), real_part_type(type), exec);
  ArrayCore u = compute_uv ? new_array(with(batch, {u_columns, rows}), type, exec) : ArrayCore();
  ArrayCore vt = compute_uv ? new_array(with(batch, {columns, columns}), type, exec) : ArrayCore();
  const ArrayCore info = statuses_for(numel(batch), exec);
  const bool empty = numel(batch) == 0 || columns == 0;
  run_solver({.routine = SolverRoutine::svd,
              .type = type,
              .batch = empty ? 0 : numel(batch),
              .rows = rows,
              .n = columns,
              .a = buffer.raw_data(),
              .values = s.raw_data(),
              .u = compute_uv ? u.raw_data() : nullptr,
              .vt = compute_uv ? vt.raw_data() : nullptr,
              .vectors = !compute_uv     ? SingularVectors::none
                         : full_matrices ? SingularVectors::complete
                                         : SingularVectors::reduced,
              .info = static_cast<std::int32_t*>(info.raw_data())},
             exec, {&buffer, &s, &u, &vt, &info});
  if (compute_uv && empty && full_matrices) u = identities(with(batch, {rows, rows}), type, exec);
  check_statuses(info, "SVD did not converge");
  if (!compute_uv) return {ArrayCore(), s, ArrayCore()};
  if (!wide) return {with_last_two_swapped(u), s, with_last_two_swapped(vt)};
  const auto conjugated = [&](const ArrayCore& x) {
    return is_complex(type) ? apply(ElementwiseOp::conj, {operand(x)}) : x;
  };
  return {conjugated(vt), s, conjugated(u)};
}

QrParts qr(const ArrayCore& a, QrMode mode) {
  const profile_range profiled("qr");
  const xp::dtype type = solver_dtype("qr", a.dtype());
  const std::int64_t m = a.shape()[a.ndim() - 2], n = a.shape()[a.ndim() - 1], k = std::min(m, n);
  const Exec exec = exec_on(a.device());
  const Shape batch = batch_shape(a.shape(), 2);
  const std::int64_t count = numel(batch);
  ArrayCore buffer = lapack_copy(a, type);
  ArrayCore tau = new_array(with(batch, {k}), type, exec);
  const ArrayCore info = statuses_for(count, exec);
  SolverCall call{.routine = SolverRoutine::qr_factor,
                  .type = type,
                  .batch = k ? count : 0,
                  .rows = m,
                  .n = n,
                  .a = buffer.raw_data(),
                  .tau = tau.raw_data(),
                  .info = static_cast<std::int32_t*>(info.raw_data())};
  run_solver(call, exec, {&buffer, &tau, &info});
  // R: the upper triangle of the factored matrix's first k rows (all m in mode complete).
  const std::int64_t r_rows = mode == QrMode::complete ? m : k;
  const std::array<Index, 3> first_rows{Index(ellipsis), Index(slice(0, r_rows)), Index(slice())};
  const ArrayCore r = triangle(index(with_last_two_swapped(buffer), first_rows), true, exec);
  if (mode == QrMode::r) return {ArrayCore(), r};
  // Q from the reflectors: a buffer of Q's columns, the first of them the factored columns.
  const std::int64_t q_columns = mode == QrMode::complete ? m : k, copied = std::min(n, q_columns);
  ArrayCore q = new_array(with(batch, {q_columns, m}), type, exec);
  alignas(16) constexpr unsigned char zero[16] = {};
  kernels_for(exec.device).fill(view_of(q, exec), zero, exec);
  const std::array<Index, 3> first_columns{Index(ellipsis), Index(slice(0, copied)), Index(slice())};
  if (count * copied * m > 0) copy_into(index(buffer, first_columns), index(q, first_columns));
  call.routine = SolverRoutine::qr_q;
  call.a = q.raw_data();
  call.columns = q_columns;
  call.reflectors = k;
  call.batch = m && q_columns ? count : 0;
  run_solver(call, exec, {&q, &tau, &info});
  check_statuses(info, "QR factorization failed");
  return {with_last_two_swapped(q), r};
}

}  // namespace xp::detail
