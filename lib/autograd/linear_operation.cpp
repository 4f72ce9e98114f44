// Recorded operations of the libraries beside libxparray (support/linear_operation.hpp): a backward that
// calls the operation's adjoint, which reads no saved value.
#include "support/linear_operation.hpp"

#include "autograd/graph.hpp"

namespace xp::detail {

namespace {

class LinearBackward final : public Backward {
 public:
  LinearBackward(std::string name, Adjoint adjoint, const ArrayCore& input)
      : name_(std::move(name)), adjoint_(std::move(adjoint)), shape_(input.shape()), dtype_(input.dtype()) {}

  std::string_view name() const noexcept override { return name_; }

  void run(const ArrayCore& g, std::span<const bool>, std::span<ArrayCore> grads) const override {
    const ArrayCore gradient = adjoint_(g);
    XP_CHECK(gradient.shape() == shape_, InternalError, name_, "'s adjoint gave a gradient of shape ", gradient.shape(),
             " for an input of shape ", shape_);
    grads[0] = gradient.dtype() == dtype_ ? gradient : astype(gradient, dtype_);
  }

 private:
  std::string name_;
  Adjoint adjoint_;
  Shape shape_;
  xp::dtype dtype_;
};

}  // namespace

ArrayCore record_linear(std::string name, const ArrayCore& input, const ArrayCore& output, Adjoint adjoint) {
  if (!recording() || !must_record({&input})) return output;
  return connect(std::make_shared<LinearBackward>(std::move(name), std::move(adjoint), input), {&input}, output);
}

}  // namespace xp::detail
