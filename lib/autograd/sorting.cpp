// sort's backward: each output gradient goes back to the position its element came from. While
// recording, sort runs as argsort and a gather by the positions, which the backward keeps.
#include "api/ops/axis_ops.hpp"
#include "autograd/gradient_math.hpp"
#include "autograd/graph.hpp"

namespace xp::detail {

namespace {

class SortBackward final : public Backward {
 public:
  SortBackward(const ArrayCore& x, const ArrayCore& positions, std::optional<int> axis)
      : shape_(x.shape()), positions_(positions), axis_(axis) {}

  std::string_view name() const noexcept override { return "sort"; }

  // The inverse permutation of the positions (their own argsort) gathers the gradient back.
  void run(const ArrayCore& g, std::span<const bool>, std::span<ArrayCore> grads) const override {
    const int axis = axis_.value_or(0);
    const ArrayCore inverse = sort_along(SortKind::argsort, positions_, axis);
    grads[0] = reshape(take_positions(g, inverse, axis), shape_);
  }

 private:
  Shape shape_;
  ArrayCore positions_;  // along the axis, or in the flattened array
  std::optional<int> axis_;
};

[[gnu::noinline]] ArrayCore record_sort(const ArrayCore& x, std::optional<int> axis) {
  const ArrayCore positions = sort_along(SortKind::argsort, x, axis);
  const ArrayCore values = axis ? x : reshape(x, Shape{static_cast<std::int64_t>(x.size())});
  const ArrayCore y = take_positions(values, positions, axis.value_or(0));
  return connect(std::make_shared<SortBackward>(x, positions, axis), {&x}, y);
}

}  // namespace

ArrayCore recorded::sort(SortKind kind, const ArrayCore& a, std::optional<int> axis) {
  if (kind == SortKind::sort && recording() && is_inexact_dtype(a.dtype()) && must_record({&a})) [[unlikely]]
    return record_sort(a, axis);
  return sort_along(kind, a, axis);
}

}  // namespace xp::detail
