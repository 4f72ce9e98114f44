// Gathers (a(idx), take, take_along_axis, pick) recorded for backward: scatter_add of the gradient.
#include "api/ops/indexing.hpp"
#include "autograd/gather.hpp"
#include "autograd/graph.hpp"
#include "core/layout.hpp"
#include "xp/creation.hpp"
#include "xp/indexing.hpp"

namespace xp::detail {

namespace {

class GatherBackward final : public Backward {
 public:
  GatherBackward(const ArrayCore& input, std::vector<Index> indices, kernels::IndexMode mode)
      : shape_(input.shape()), type_(input.dtype()), indices_(std::move(indices)), mode_(mode) {}
  std::string_view name() const noexcept override { return "gather"; }
  std::vector<const ArrayCore*> saved() const override { return index_arrays(indices_); }
  void run(const ArrayCore& g, std::span<const bool>, std::span<ArrayCore> grads) const override {
    grads[0] = detail::zeros(shape_, type_, g.device());
    scatter_index(ScatterOp::add, grads[0], indices_, g, mode_, "gather backward");
  }

 private:
  Shape shape_;
  xp::dtype type_;
  std::vector<Index> indices_;
  kernels::IndexMode mode_;
};

}  // namespace

ArrayCore recorded_gather(const ArrayCore& a, std::vector<Index> indices, kernels::IndexMode mode,
                          std::string_view op) {
  ArrayCore out = gather_index(a, indices, mode, op);
  if (!must_record({&a})) return out;
  return connect(std::make_shared<GatherBackward>(a, std::move(indices), mode), {&a}, out);
}

ArrayCore recorded::take(const ArrayCore& a, const ArrayCore& indices, std::optional<int> axis, std::string_view mode) {
  const kernels::IndexMode resolved = index_mode(mode);
  if (!axis) return recorded_gather(recorded::reshape(a, Shape{-1}), take_index(0, indices), resolved, "take");
  const int along = normalize_axis(*axis, a.ndim(), "take");
  if (auto empty = take_without_rows(a, indices, along)) return *empty;
  return recorded_gather(a, take_index(along, indices), resolved, "take");
}

ArrayCore recorded::take_along_axis(const ArrayCore& a, const ArrayCore& indices, std::optional<int> axis) {
  if (!axis) {
    const ArrayCore all = recorded::reshape(a, Shape{-1});  // NumPy: 1-d indices into the flattened array
    return recorded_gather(all, along_axis_index(all, indices, 0), kernels::IndexMode::raise, "take_along_axis");
  }
  const int along = normalize_axis(*axis, a.ndim(), "take_along_axis");
  return recorded_gather(a, along_axis_index(a, indices, along), kernels::IndexMode::raise, "take_along_axis");
}

}  // namespace xp::detail
