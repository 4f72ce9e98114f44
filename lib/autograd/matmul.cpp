// matmul's and dot's backwards: products with the other operand, transposed as a view.
#include <vector>

#include "autograd/gradient_math.hpp"
#include "autograd/graph.hpp"
#include "core/layout.hpp"
#include "xp/linalg.hpp"

namespace xp::detail {

namespace {

ArrayCore swap_last_two(const ArrayCore& a) { return transpose(a, last_two_swapped(a.ndim())); }

// C order, as reshape needs it for the products below.
ArrayCore as_matrix(const ArrayCore& a, std::int64_t rows, std::int64_t columns) { return reshape(a, {rows, columns}); }

class ProductBackward final : public Backward {
 public:
  ProductBackward(Product kind, const ArrayCore& a, const ArrayCore& b)
      : kind_(kind), a_(detached(a)), b_(detached(b)) {}

  std::string_view name() const noexcept override { return kind_ == Product::matmul ? "matmul" : "dot"; }
  std::vector<const ArrayCore*> saved() const override { return {&a_, &b_}; }

  // Complex products conjugate the real formulas' results (gradient_math.hpp): g . conj(B)^T.
  void run(const ArrayCore& g, std::span<const bool> needed, std::span<ArrayCore> grads) const override {
    const bool complex = is_complex(a_.dtype()) || is_complex(b_.dtype());
    real_gradients(complex ? conjugate(g) : g, needed, grads);
    for (std::size_t k = 0; complex && k < 2; ++k)
      if (needed[k]) grads[k] = conjugate(grads[k]);
  }

 private:
  void real_gradients(const ArrayCore& g, std::span<const bool> needed, std::span<ArrayCore> grads) const {
    if (kind_ == Product::dot && (a_.ndim() == 0 || b_.ndim() == 0)) {  // a product by a scalar
      if (needed[0]) grads[0] = fit_to(apply(ElementwiseOp::multiply, arg(g), arg(b_)), a_);
      if (needed[1]) grads[1] = fit_to(apply(ElementwiseOp::multiply, arg(g), arg(a_)), b_);
      return;
    }
    if (kind_ == Product::matmul || b_.ndim() == 1) matmul_gradients(g, needed, grads);
    else dot_gradients(g, needed, grads);
  }

  // matmul (and dot with a 1-D b, the same product): 1-D operands become a row (a) or a column (b),
  // the gradients are products over the stacks, summed over the broadcast batch axes.
  void matmul_gradients(const ArrayCore& g, std::span<const bool> needed, std::span<ArrayCore> grads) const {
    const ArrayCore a = a_.ndim() == 1 ? reshape(a_, {1, a_.shape()[0]}) : a_;
    const ArrayCore b = b_.ndim() == 1 ? reshape(b_, {b_.shape()[0], 1}) : b_;
    ArrayCore a2 = a, b2 = b;
    if (kind_ == Product::dot && a.ndim() > 2) {  // dot takes a's rows as one matrix
      const std::int64_t k = a.shape()[a.ndim() - 1];
      a2 = as_matrix(a, static_cast<std::int64_t>(a.size()) / k, k);
    }
    Shape product_shape;
    if (kind_ == Product::dot) {
      product_shape = {a2.shape()[0], b2.shape()[1]};
    } else {
      Shape batch_a, batch_b;
      for (int axis = 0; axis < a.ndim() - 2; ++axis) batch_a.push_back(a.shape()[axis]);
      for (int axis = 0; axis < b.ndim() - 2; ++axis) batch_b.push_back(b.shape()[axis]);
      const Shape* batches[] = {&batch_a, &batch_b};
      product_shape = broadcast_shapes("matmul", batches);
      product_shape.push_back(a.shape()[a.ndim() - 2]);
      product_shape.push_back(b.shape()[b.ndim() - 1]);
    }
    const ArrayCore g2 = reshape(g, product_shape);
    if (needed[0]) grads[0] = fit_to(reshape(sum_to(matmul(g2, swap_last_two(b2)), a2.shape()), a_.shape()), a_);
    if (needed[1]) grads[1] = fit_to(reshape(sum_to(matmul(swap_last_two(a2), g2), b2.shape()), b_.shape()), b_);
  }

  // dot of a (..., k) with an N-D b (B..., k, n): as one matrix product of a's rows (m, k) with b's
  // matrices side by side, (k, B...n).
  void dot_gradients(const ArrayCore& g, std::span<const bool> needed, std::span<ArrayCore> grads) const {
    const int nb = b_.ndim();
    const std::int64_t k = b_.shape()[nb - 2];
    const auto m = static_cast<std::int64_t>(a_.size() / k);
    const auto columns = static_cast<std::int64_t>(b_.size() / k);
    std::vector<int> k_first(static_cast<std::size_t>(nb));  // b's axes with k moved to the front
    k_first[0] = nb - 2;
    for (int axis = 0, at = 1; axis < nb; ++axis)
      if (axis != nb - 2) k_first[at++] = axis;
    const ArrayCore a2 = as_matrix(a_, m, k);
    const ArrayCore b_k_first = transpose(b_, k_first);
    const ArrayCore g2 = as_matrix(g, m, columns);
    if (needed[0]) {
      const ArrayCore b2 = as_matrix(b_k_first, k, columns);
      grads[0] = fit_to(reshape(matmul(g2, transpose(b2, {})), a_.shape()), a_);
    }
    if (needed[1]) {
      std::vector<int> back(static_cast<std::size_t>(nb));
      for (int i = 0; i < nb; ++i) back[static_cast<std::size_t>(k_first[i])] = i;
      const ArrayCore gb = reshape(matmul(transpose(a2, {}), g2), b_k_first.shape());
      grads[1] = fit_to(transpose(gb, back), b_);
    }
  }

  Product kind_;
  ArrayCore a_, b_;
};

}  // namespace

ArrayCore recorded::product(Product kind, const ArrayCore& a, const ArrayCore& b, const ArrayCore* out) {
  if (out) {
    const ArrayCore* inputs[] = {&a, &b};
    check_not_recorded_into(kind == Product::matmul ? "matmul" : "dot", inputs, *out);
    return detail::product(kind, a, b, out);
  }
  ArrayCore result = detail::product(kind, a, b, nullptr);
  if (!is_inexact_dtype(result.dtype()) || !must_record({&a, &b})) return result;
  return connect(std::make_shared<ProductBackward>(kind, a, b), {&a, &b}, result);
}

}  // namespace xp::detail
