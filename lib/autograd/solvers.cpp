// The solvers' backwards (PyTorch's formulas, in the library's convention for complex gradients:
// g * conj(f'(z))). solve, inv and det take complex matrices too; slogdet, cholesky, eigh and svd real
// ones only (NotImplementedError while a complex one would have to record). Functions that read one
// triangle (cholesky, eigh) give the gradient of that function: zero on the triangle they do not read.
// Several results (eigh's, svd's) are parts of one recorded array, so one backward sees all their gradients.
#include <vector>

#include "autograd/gradient_math.hpp"
#include "autograd/graph.hpp"
#include "core/layout.hpp"
#include "xp/creation.hpp"
#include "xp/diagonal.hpp"
#include "xp/linalg_solvers.hpp"
#include "xp/shape_functions.hpp"

namespace xp::detail {

namespace {

ArrayCore adjoint(const ArrayCore& a) { return conjugate(transpose(a, last_two_swapped(a.ndim()))); }

// x with two axes of extent 1 added at the end, to scale each matrix of a stack.
ArrayCore per_matrix(const ArrayCore& x) {
  return reshape(x, [&] {
    Shape s = x.shape();
    s.push_back(1);
    s.push_back(1);
    return s;
  }());
}

// Row and column positions of an n x n matrix, shaped to broadcast against each other.
struct Positions {
  ArrayCore row, column;
  Positions(std::int64_t n, Device device)
      : row(reshape(arange(0, static_cast<double>(n), 1, xp::dtype::int64, device), {n, 1})),
        column(reshape(arange(0, static_cast<double>(n), 1, xp::dtype::int64, device), {1, n})) {}
};

// The gradient of a function reading only one triangle of its matrix from the gradient S of the same
// function of a symmetric matrix: S_ij + S_ji on the triangle read, S_ii on the diagonal, zero elsewhere.
ArrayCore folded_onto_triangle(const ArrayCore& s, bool upper) {
  const Positions at(s.shape()[s.ndim() - 1], s.device());
  const ArrayCore both = apply(ElementwiseOp::add, arg(s), arg(adjoint(s)));
  const ArrayCore read = apply(upper ? ElementwiseOp::greater : ElementwiseOp::less, arg(at.column), arg(at.row));
  const ArrayCore on_diagonal = apply(ElementwiseOp::equal, arg(at.column), arg(at.row));
  return apply(ElementwiseOp::where, arg(read), arg(both),
               arg(apply(ElementwiseOp::where, arg(on_diagonal), arg(s), arg(0.0))));
}

// F_ij = 1 / (d_j - d_i) off the diagonal, 0 on it, for a stack of vectors d (..., n).
ArrayCore inverse_gaps(const ArrayCore& d) {
  const std::int64_t n = d.shape()[d.ndim() - 1];
  Shape column_shape = d.shape(), row_shape = d.shape();
  column_shape.push_back(1);
  row_shape[row_shape.ndim() - 1] = 1;
  row_shape.push_back(n);
  const ArrayCore gaps = apply(ElementwiseOp::subtract, arg(reshape(d, row_shape)), arg(reshape(d, column_shape)));
  const Positions at(n, d.device());
  const ArrayCore on_diagonal = apply(ElementwiseOp::equal, arg(at.column), arg(at.row));
  return apply(ElementwiseOp::where, arg(on_diagonal), arg(0.0), arg(apply(ElementwiseOp::reciprocal, arg(gaps))));
}

ArrayCore diagonal_matrix(const ArrayCore& d) {
  const std::int64_t n = d.shape()[d.ndim() - 1];
  const ArrayCore eye_n = eye(n, n, 0, d.dtype(), d.device());
  Shape column_shape = d.shape();
  column_shape.push_back(1);
  return apply(ElementwiseOp::multiply, arg(eye_n), arg(reshape(d, column_shape)));
}

// tril(x) with its diagonal halved: the Phi of the Cholesky backward.
ArrayCore lower_half_diagonal(const ArrayCore& x) {
  const Positions at(x.shape()[x.ndim() - 1], x.device());
  const ArrayCore above = apply(ElementwiseOp::greater, arg(at.column), arg(at.row));
  const ArrayCore on_diagonal = apply(ElementwiseOp::equal, arg(at.column), arg(at.row));
  const ArrayCore halved =
      apply(ElementwiseOp::where, arg(on_diagonal), arg(apply(ElementwiseOp::multiply, arg(x), arg(0.5))), arg(x));
  return apply(ElementwiseOp::where, arg(above), arg(0.0), arg(halved));
}

// One recorded array holding several results side by side in its last axis (each flattened over its
// matrix axes), so that one backward receives the gradients of all of them.
class Packed {
 public:
  // The parts, each (..., extents...) with `core` trailing axes; all share the leading axes.
  Packed(std::vector<ArrayCore> parts, std::vector<int> core) : parts_(std::move(parts)), core_(std::move(core)) {}
  ArrayCore joined() const {
    std::vector<ArrayCore> flat;
    std::vector<const ArrayCore*> pointers;
    for (std::size_t i = 0; i < parts_.size(); ++i) flat.push_back(reshape(parts_[i], flat_shape(i)));
    for (const ArrayCore& part : flat) pointers.push_back(&part);
    return concatenate(pointers, -1);
  }
  // The parts of `packed` (recorded views when `record`, to carry their gradients back into it).
  std::vector<ArrayCore> split(const ArrayCore& packed, bool record) const {
    std::vector<std::int64_t> points;
    std::int64_t at = 0;
    for (std::size_t i = 0; i + 1 < parts_.size(); ++i) points.push_back(at += flat_length(i));
    std::vector<ArrayCore> pieces = record ? recorded::split_at(packed, points, -1) : split_at(packed, points, -1);
    for (std::size_t i = 0; i < pieces.size(); ++i)
      pieces[i] = record ? recorded::reshape(pieces[i], parts_[i].shape()) : reshape(pieces[i], parts_[i].shape());
    return pieces;
  }

 private:
  std::int64_t flat_length(std::size_t i) const {
    std::int64_t n = 1;
    for (int axis = parts_[i].ndim() - core_[i]; axis < parts_[i].ndim(); ++axis) n *= parts_[i].shape()[axis];
    return n;
  }
  Shape flat_shape(std::size_t i) const {
    Shape shape;
    for (int axis = 0; axis < parts_[i].ndim() - core_[i]; ++axis) shape.push_back(parts_[i].shape()[axis]);
    shape.push_back(flat_length(i));
    return shape;
  }
  std::vector<ArrayCore> parts_;
  std::vector<int> core_;
};

class CholeskyBackward final : public Backward {
 public:
  explicit CholeskyBackward(const ArrayCore& lower) : lower_(detached(lower)) {}
  std::string_view name() const noexcept override { return "cholesky"; }
  std::vector<const ArrayCore*> saved() const override { return {&lower_}; }
  // S = L^-T Phi(L^T tril(g)) L^-1, folded onto the lower triangle cholesky reads.
  void run(const ArrayCore& g, std::span<const bool>, std::span<ArrayCore> grads) const override {
    const ArrayCore phi = lower_half_diagonal(matmul(adjoint(lower_), lower_triangle_of(g)));
    const ArrayCore lower_inverse = inverse(lower_);
    grads[0] = folded_onto_triangle(matmul(matmul(adjoint(lower_inverse), phi), lower_inverse), false);
  }

 private:
  // Only L's lower triangle is a result (its upper one is zero whatever a is): tril(g).
  ArrayCore lower_triangle_of(const ArrayCore& g) const {
    const Positions at(g.shape()[g.ndim() - 1], g.device());
    return apply(ElementwiseOp::where, arg(apply(ElementwiseOp::greater, arg(at.column), arg(at.row))), arg(0.0),
                 arg(g));
  }
  ArrayCore lower_;
};

class EighBackward final : public Backward {
 public:
  EighBackward(const EighParts& parts, bool upper, Packed layout)
      : values_(detached(parts.values)), vectors_(detached(parts.vectors)), upper_(upper), layout_(std::move(layout)) {}
  std::string_view name() const noexcept override { return "eigh"; }
  std::vector<const ArrayCore*> saved() const override { return {&values_, &vectors_}; }
  // S = V (diag(gw) + F o (V^T gV)) V^T, F_ij = 1 / (w_j - w_i), folded onto the triangle read.
  void run(const ArrayCore& g, std::span<const bool>, std::span<ArrayCore> grads) const override {
    const std::vector<ArrayCore> parts = layout_.split(g, false);
    const ArrayCore& v = vectors_;
    const ArrayCore mixed =
        apply(ElementwiseOp::multiply, arg(inverse_gaps(values_)), arg(matmul(adjoint(v), parts[1])));
    const ArrayCore inner = apply(ElementwiseOp::add, arg(diagonal_matrix(parts[0])), arg(mixed));
    grads[0] = folded_onto_triangle(matmul(matmul(v, inner), adjoint(v)), upper_);
  }

 private:
  ArrayCore values_, vectors_;
  bool upper_;
  Packed layout_;
};

class SvdBackward final : public Backward {
 public:
  SvdBackward(const SvdParts& parts, Packed layout)
      : u_(detached(parts.u)), s_(detached(parts.s)), vh_(detached(parts.vh)), layout_(std::move(layout)) {}
  std::string_view name() const noexcept override { return "svd"; }
  std::vector<const ArrayCore*> saved() const override { return {&u_, &s_, &vh_}; }
  // The reduced SVD's (Townsend's): with F_ij = 1 / (s_j^2 - s_i^2),
  // U [(F o (U^T gU - gU^T U)) S + diag(gS) + S (F o (V^T gV - gV^T V))] V^T
  //   + (I - U U^T) gU S^-1 V^T + U S^-1 gV^T (I - V V^T).
  void run(const ArrayCore& g, std::span<const bool>, std::span<ArrayCore> grads) const override {
    const std::vector<ArrayCore> parts = layout_.split(g, false);
    const ArrayCore &gu = parts[0], &gs = parts[1], &gvh = parts[2];
    const ArrayCore v = adjoint(vh_), gv = adjoint(gvh);
    const ArrayCore f = inverse_gaps(apply(ElementwiseOp::square, arg(s_)));
    const auto skew = [&](const ArrayCore& x, const ArrayCore& gx) {
      const ArrayCore xt_gx = matmul(adjoint(x), gx);
      return apply(ElementwiseOp::multiply, arg(f),
                   arg(apply(ElementwiseOp::subtract, arg(xt_gx), arg(adjoint(xt_gx)))));
    };
    const ArrayCore s_row = row_of(s_), s_column = column_of(s_);
    const ArrayCore inner = add(add(apply(ElementwiseOp::multiply, arg(skew(u_, gu)), arg(s_row)), diagonal_matrix(gs)),
                                apply(ElementwiseOp::multiply, arg(s_column), arg(skew(v, gv))));
    const ArrayCore inverse_s_row = apply(ElementwiseOp::reciprocal, arg(s_row));
    const ArrayCore u_part = subtract(gu, matmul(u_, matmul(adjoint(u_), gu)));
    const ArrayCore v_part = subtract(gvh, matmul(matmul(gvh, v), vh_));
    grads[0] = add(add(matmul(matmul(u_, inner), vh_),
                       matmul(apply(ElementwiseOp::multiply, arg(u_part), arg(inverse_s_row)), vh_)),
                   matmul(u_, apply(ElementwiseOp::multiply, arg(column_of(apply(ElementwiseOp::reciprocal, arg(s_)))),
                                    arg(v_part))));
  }

 private:
  static ArrayCore add(const ArrayCore& x, const ArrayCore& y) { return apply(ElementwiseOp::add, arg(x), arg(y)); }
  static ArrayCore subtract(const ArrayCore& x, const ArrayCore& y) {
    return apply(ElementwiseOp::subtract, arg(x), arg(y));
  }
  // A stack of vectors (..., k) as rows (..., 1, k) or columns (..., k, 1), to scale columns or rows.
  static ArrayCore row_of(const ArrayCore& d) { return expand_dims(d, -2); }
  static ArrayCore column_of(const ArrayCore& d) { return expand_dims(d, -1); }
  ArrayCore u_, s_, vh_;
  Packed layout_;
};

void refuse_complex(std::string_view op, const ArrayCore& a) {
  XP_CHECK(!is_complex(a.dtype()), NotImplementedError, op, ": gradients of complex matrices are not implemented");
}

class SolveBackward final : public Backward {
 public:
  SolveBackward(const ArrayCore& a, const ArrayCore& b, const ArrayCore& x)
      : a_(detached(a)), b_shape_(b.shape()), b_type_(b.dtype()), x_(detached(x)) {}
  std::string_view name() const noexcept override { return "solve"; }
  std::vector<const ArrayCore*> saved() const override { return {&a_, &x_}; }
  // gB = solve(A^H, g), gA = -gB X^H, each summed over the batch axes it was broadcast along.
  void run(const ArrayCore& g, std::span<const bool> needed, std::span<ArrayCore> grads) const override {
    const ArrayCore gb = solve(adjoint(a_), g);
    if (needed[1]) grads[1] = astype(sum_to(gb, b_shape_), b_type_);
    if (needed[0]) grads[0] = fit_to(apply(ElementwiseOp::negative, arg(matmul(gb, adjoint(x_)))), a_);
  }

 private:
  ArrayCore a_;
  Shape b_shape_;
  xp::dtype b_type_;
  ArrayCore x_;
};

class InverseBackward final : public Backward {
 public:
  InverseBackward(const ArrayCore& a, const ArrayCore& y) : a_(detached(a)), y_(detached(y)) {}
  std::string_view name() const noexcept override { return "inv"; }
  std::vector<const ArrayCore*> saved() const override { return {&y_}; }
  void run(const ArrayCore& g, std::span<const bool>, std::span<ArrayCore> grads) const override {
    const ArrayCore yh = adjoint(y_);
    grads[0] = fit_to(apply(ElementwiseOp::negative, arg(matmul(matmul(yh, g), yh))), a_);
  }

 private:
  ArrayCore a_, y_;
};

// det: g conj(det) A^-H; slogdet's logabsdet (real matrices, det not given): g A^-T. A singular matrix
// has no inverse: its backward is a LinAlgError.
class DeterminantBackward final : public Backward {
 public:
  DeterminantBackward(const ArrayCore& a, const ArrayCore* det)
      : a_(detached(a)), det_(det ? detached(*det) : ArrayCore()), logarithm_(det == nullptr) {}
  std::string_view name() const noexcept override { return logarithm_ ? "slogdet" : "det"; }
  std::vector<const ArrayCore*> saved() const override { return {&a_}; }
  void run(const ArrayCore& g, std::span<const bool>, std::span<ArrayCore> grads) const override {
    const ArrayCore scale = logarithm_ ? g : apply(ElementwiseOp::multiply, arg(g), arg(conjugate(det_)));
    grads[0] = fit_to(apply(ElementwiseOp::multiply, arg(per_matrix(scale)), arg(adjoint(inverse(a_)))), a_);
  }

 private:
  ArrayCore a_, det_;
  bool logarithm_;
};

}  // namespace

ArrayCore recorded::solve(const ArrayCore& a, const ArrayCore& b) {
  ArrayCore x = detail::solve(a, b);
  if (!must_record({&a, &b})) return x;
  return connect(std::make_shared<SolveBackward>(a, b, x), {&a, &b}, x);
}

ArrayCore recorded::inverse(const ArrayCore& a) {
  ArrayCore y = detail::inverse(a);
  if (!must_record({&a})) return y;
  return connect(std::make_shared<InverseBackward>(a, y), {&a}, y);
}

ArrayCore recorded::det(const ArrayCore& a) {
  ArrayCore d = detail::det(a);
  if (!must_record({&a})) return d;
  return connect(std::make_shared<DeterminantBackward>(a, &d), {&a}, d);
}

SlogdetParts recorded::slogdet(const ArrayCore& a) {
  SlogdetParts parts = detail::slogdet(a);
  if (!must_record({&a})) return parts;
  refuse_complex("slogdet", a);
  parts.logabsdet = connect(std::make_shared<DeterminantBackward>(a, nullptr), {&a}, parts.logabsdet);
  return parts;
}

ArrayCore recorded::cholesky(const ArrayCore& a) {
  ArrayCore lower = detail::cholesky(a);
  if (!must_record({&a})) return lower;
  refuse_complex("cholesky", a);
  return connect(std::make_shared<CholeskyBackward>(lower), {&a}, lower);
}

EighParts recorded::eigh(const ArrayCore& a, bool upper, bool vectors) {
  if (!must_record({&a})) return detail::eigh(a, upper, vectors);
  refuse_complex("eigh", a);
  const EighParts parts = detail::eigh(a, upper, true);  // the backward needs the vectors
  const Packed layout({parts.values, parts.vectors}, {1, 2});
  const ArrayCore packed = connect(std::make_shared<EighBackward>(parts, upper, layout), {&a}, layout.joined());
  const std::vector<ArrayCore> pieces = layout.split(packed, true);
  return {pieces[0], vectors ? pieces[1] : ArrayCore()};
}

SvdParts recorded::svd(const ArrayCore& a, bool compute_uv, bool full_matrices) {
  if (!must_record({&a})) return detail::svd(a, compute_uv, full_matrices);
  refuse_complex("svd", a);
  const std::int64_t m = a.shape()[a.ndim() - 2], n = a.shape()[a.ndim() - 1];
  XP_CHECK(!compute_uv || !full_matrices || m == n, NotImplementedError,
           "svd: gradients need full_matrices=false for a ", m, " x ", n,
           " matrix (its extra singular vectors are not unique)");
  const SvdParts parts = detail::svd(a, true, false);  // the backward needs the vectors
  const Packed layout({parts.u, parts.s, parts.vh}, {2, 1, 2});
  const ArrayCore packed = connect(std::make_shared<SvdBackward>(parts, layout), {&a}, layout.joined());
  const std::vector<ArrayCore> pieces = layout.split(packed, true);
  return compute_uv ? SvdParts{pieces[0], pieces[1], pieces[2]} : SvdParts{ArrayCore(), pieces[1], ArrayCore()};
}

QrParts recorded::qr(const ArrayCore& a, QrMode mode) {
  XP_CHECK(!must_record({&a}), NotImplementedError, "qr: gradients are not implemented");
  return detail::qr(a, mode);
}

}  // namespace xp::detail
