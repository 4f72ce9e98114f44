// Activation, Dropout, Flatten, BatchNorm and Sequential.
#include <sstream>

#include "xp/autograd.hpp"
#include "xp/math.hpp"
#include "xp/nn.hpp"

namespace xp::nn {

Activation::Activation(std::string activation) : Block("Activation"), activation_(std::move(activation)) {
  XP_CHECK(activation_ == "relu" || activation_ == "sigmoid" || activation_ == "tanh" || activation_ == "softrelu" ||
               activation_ == "softsign",
           ValueError, "Activation: unknown act_type '", activation_, "' (relu, sigmoid, tanh, softrelu or softsign)");
}

ndarray<> Activation::forward(const ndarray<>& x) {
  if (activation_ == "relu") return relu(x);
  if (activation_ == "sigmoid") return sigmoid(x);
  if (activation_ == "tanh") return xp::tanh(x);
  if (activation_ == "softrelu") return softrelu(x);
  return softsign(x);
}

std::string Activation::repr() const { return "Activation(" + activation_ + ")"; }

Dropout::Dropout(double rate) : Block("Dropout"), rate_(rate) {
  XP_CHECK(rate >= 0.0 && rate <= 1.0, ValueError, "Dropout: the rate ", rate, " is not in [0, 1]");
}

ndarray<> Dropout::forward(const ndarray<>& x) { return dropout(x, rate_); }

std::string Dropout::repr() const {
  std::ostringstream out;
  out << "Dropout(p = " << rate_ << ", axes=())";
  return out.str();
}

Flatten::Flatten() : Block("Flatten") {}

ndarray<> Flatten::forward(const ndarray<>& x) { return x.reshape({x.ndim() == 0 ? 1 : x.shape()[0], -1}); }

BatchNorm::BatchNorm(int axis, double momentum, double epsilon, bool center, bool scale, bool use_global_stats,
                     std::int64_t in_channels)
    : Block("BatchNorm"), options_{epsilon, momentum, axis, !scale, use_global_stats} {
  using initializer::One;
  using initializer::Zero;
  add_param("gamma", {in_channels}, std::make_shared<One>(), scale ? GradReq::write : GradReq::null);
  add_param("beta", {in_channels}, std::make_shared<Zero>(), center ? GradReq::write : GradReq::null);
  add_param("running_mean", {in_channels}, std::make_shared<Zero>(), GradReq::null);
  add_param("running_var", {in_channels}, std::make_shared<One>(), GradReq::null);
}

ndarray<> BatchNorm::forward(const ndarray<>& x) {
  XP_CHECK(x.ndim() > 0, ValueError, "BatchNorm: the input needs an axis ", options_.axis);
  const int axis = options_.axis < 0 ? options_.axis + x.ndim() : options_.axis;
  XP_CHECK(axis >= 0 && axis < x.ndim(), ValueError, "BatchNorm: axis ", options_.axis, " is out of range for ",
           x.shape());
  for (const char* name : {"gamma", "beta", "running_mean", "running_var"}) {
    Parameter p = own(name);
    if (p.is_deferred()) {
      p.set_shape({x.shape()[axis]});
      p.finish_deferred_init();
    }
  }
  const Device d = x.device();
  return batch_norm(x, own("gamma").data(d), own("beta").data(d), own("running_mean").data(d),
                    own("running_var").data(d), options_);
}

std::string BatchNorm::repr() const {
  const std::int64_t channels = own("gamma").shape()[0];
  std::ostringstream out;
  out << "BatchNorm(axis=" << options_.axis << ", eps=" << options_.eps << ", momentum=" << options_.momentum
      << ", fix_gamma=" << (options_.fix_gamma ? "True" : "False")
      << ", use_global_stats=" << (options_.use_global_stats ? "True" : "False") << ", in_channels=";
  if (channels == 0) out << "None";
  else out << channels;
  out << ")";
  return out.str();
}

Sequential::Sequential() : Block("Sequential") {}

void Sequential::add_block(std::shared_ptr<Block> block) {
  XP_CHECK(block != nullptr, ValueError, "Sequential.add: a null block");
  add_child(std::to_string(children().size()), std::move(block));
}

Block& Sequential::operator[](std::size_t i) const {
  XP_CHECK(i < children().size(), IndexError, "Sequential: index ", i, " is out of range for ", children().size(),
           " blocks");
  return *children()[i].second;
}

ndarray<> Sequential::forward(const ndarray<>& x) {
  ndarray<> y = x;
  for (const auto& [key, block] : children()) y = block->forward(y);
  return y;
}

}  // namespace xp::nn
