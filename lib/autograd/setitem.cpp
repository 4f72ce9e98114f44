// Writes through a selection (a.at(...) = v, a.at(...) op= v) recorded for backward: the written
// array's later values take the gradient; its earlier values get it outside the selection and the value
// what reached the places it was written to.
#include <algorithm>
#include <array>
#include <vector>

#include "api/ops/indexing.hpp"
#include "autograd/gradient_math.hpp"
#include "autograd/graph.hpp"
#include "xp/creation.hpp"
#include "xp/type_info.hpp"

namespace xp::detail {

namespace {

bool has_integer_array(std::span<const Index> indices) {
  return std::ranges::any_of(
      indices, [](const Index& i) { return i.kind() == Index::Kind::array && i.array()->dtype() != xp::dtype::bool_; });
}

// Which places of the selection kept their value: a position an integer index chooses twice keeps the
// later write (the forward's rule), so the earlier place gets no gradient. The selection's numbers are
// written through the index, read back through it and compared with themselves.
ArrayCore kept_places(const Shape& target, Device device, std::span<const Index> indices, const Shape& selection) {
  const auto count = static_cast<double>(numel(selection));
  const ArrayCore numbers = reshape(arange(0, count, 1, xp::dtype::int64, device), selection);
  const std::int64_t unwritten = -1;
  const ArrayCore board = full(target, xp::dtype::int64, &unwritten, device);
  assign_selection(board, indices, Operand{&numbers, {}});
  return apply(ElementwiseOp::equal, arg(index(board, indices)), arg(numbers));
}

class SetitemBackward final : public Backward {
 public:
  SetitemBackward(std::span<const Index> indices, const ArrayCore* value) : indices_(indices.begin(), indices.end()) {
    if (!value) return;
    value_shape_ = value->shape();
    value_type_ = value->dtype();
    value_device_ = value->device();
  }
  std::string_view name() const noexcept override { return "setitem"; }
  std::vector<const ArrayCore*> saved() const override { return index_arrays(indices_); }

  void run(const ArrayCore& g, std::span<const bool> needed, std::span<ArrayCore> grads) const override {
    if (needed[0]) {  // the earlier values: none of what the write replaced reached the output
      grads[0] = copy_to(g, g.device());
      assign_selection(grads[0], indices_, arg(0.0));
    }
    if (needed.size() > 1 && needed[1]) grads[1] = value_gradient(g);
  }

 private:
  ArrayCore value_gradient(const ArrayCore& g) const {
    ArrayCore reached = index(g, indices_);
    if (has_integer_array(indices_)) {
      const ArrayCore kept = kept_places(g.shape(), g.device(), indices_, reached.shape());
      reached = apply(ElementwiseOp::where, arg(kept), arg(reached), arg(0.0));
    }
    ArrayCore gradient = sum_to(reached, value_shape_);  // the value was broadcast to the selection
    if (gradient.dtype() != value_type_) gradient = astype(gradient, value_type_);
    return gradient.device() == value_device_ ? gradient : copy_to(gradient, value_device_);
  }

  std::vector<Index> indices_;
  Shape value_shape_;
  xp::dtype value_type_ = xp::dtype::float32;
  Device value_device_;
};

}  // namespace

namespace recorded {

void prepare_selection(const ArrayCore& a) {
  if (recording() && !ArrayInternals::autograd_meta(a))
    ArrayInternals::set_autograd_meta(a, std::make_shared<AutogradMeta>());
}

void assign_selection(const ArrayCore& a, std::span<const Index> indices, const Operand& value) {
  if (!recording()) return detail::assign_selection(a, indices, value);
  const ArrayCore* const inputs[] = {&a, value.array};
  const std::span<const ArrayCore* const> arrays(inputs, value.array ? 2 : 1);
  const bool record = must_record(arrays) && is_inexact_dtype(a.dtype());
  if (record) check_recorded_write(a);
  detail::assign_selection(a, indices, value);
  if (record) connect_write(std::make_shared<SetitemBackward>(indices, value.array), a, arrays.subspan(1));
}

void update_selection(const ArrayCore& a, std::span<const Index> indices, ElementwiseOp op, const Operand& value) {
  const ArrayCore* const inputs[] = {&a, value.array};
  if (!must_record(std::span(inputs, value.array ? 2 : 1))) {  // in place where the selection is a view
    const ArrayCore current = detail::index(a, indices);
    const std::array<Operand, 2> operands{Operand{&current, {}}, value};
    detail::elementwise(op, operands, current);
    if (!current.shares_buffer_with(a)) detail::assign_selection(a, indices, Operand{&current, {}});
    return;
  }
  // The operation may save its operand for backward, which the write would change if it were a view.
  ArrayCore current = recorded::index(a, indices);
  if (current.shares_buffer_with(a)) current = recorded::copy_to(current, current.device());
  const std::array<Operand, 2> operands{Operand{&current, {}}, value};
  const ArrayCore updated = recorded::elementwise(op, operands);
  XP_CHECK(can_cast(updated.dtype(), a.dtype(), Casting::same_kind), TypeError, op_name(op), ": cannot write a ",
           updated.dtype(), " result into a ", a.dtype(), " output (NumPy's same_kind casting)");
  recorded::assign_selection(a, indices, Operand{&updated, {}});
}

}  // namespace recorded

}  // namespace xp::detail
