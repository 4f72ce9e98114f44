#include <sstream>

#include "xp/nn.hpp"

namespace xp::nn {

Dense::Dense(std::int64_t units, std::string_view activation, bool use_bias, bool flatten, std::int64_t in_units,
             dtype type, std::shared_ptr<const initializer::Initializer> weight_initializer,
             std::shared_ptr<const initializer::Initializer> bias_initializer)
    : Block("Dense"), units_(units), use_bias_(use_bias), flatten_(flatten) {
  XP_CHECK(units > 0 && in_units >= 0, ValueError, "Dense: units must be positive and in_units not negative, not ",
           units, " and ", in_units);
  XP_CHECK(type == dtype::float32 || type == dtype::float64, TypeError, "Dense: dtype must be float32 or float64, not ",
           type);
  add_param("weight", {units, in_units}, std::move(weight_initializer), GradReq::write, type);
  if (use_bias) add_param("bias", {units}, std::move(bias_initializer), GradReq::write, type);
  if (!activation.empty()) {
    const gluon::NameScope scope(*this);
    activation_ = std::make_shared<Activation>(std::string(activation));
    add_child("act", activation_);
  }
}

Dense::Dense(std::int64_t units, const DenseOptions& options)
    : Dense(units, options.activation, options.use_bias, options.flatten, options.in_units, options.type,
            options.weight_initializer, options.bias_initializer) {}

ndarray<> Dense::forward(const ndarray<>& x) {
  Parameter w = weight();
  if (w.is_deferred()) {  // the input gives in_units
    const auto size = static_cast<std::int64_t>(x.size());
    std::int64_t in_units = 1;
    if (x.ndim() > 0) in_units = !flatten_ ? x.shape()[x.ndim() - 1] : x.shape()[0] == 0 ? 0 : size / x.shape()[0];
    w.set_shape({units_, in_units});
    w.finish_deferred_init();
    if (use_bias_) bias().finish_deferred_init();
  }
  const Device device = x.device();
  const ndarray<> weight_data = w.data(device);  // first, so that a wrong device names the weight (MXNet's order)
  const ndarray<> y = use_bias_ ? fully_connected(x, weight_data, bias().data(device), flatten_)
                                : fully_connected(x, weight_data, none, flatten_);
  return activation_ ? activation_->forward(y) : y;
}

std::string Dense::repr() const {
  const Shape& shape = weight().shape();
  std::ostringstream out;
  out << "Dense(";
  if (shape[1] == 0) out << "None";
  else out << shape[1];
  out << " -> " << shape[0] << ", " << (activation_ ? activation_->repr() : "linear") << ")";
  return out.str();
}

}  // namespace xp::nn
