#include "xp/optimizer.hpp"

#include <cctype>
#include <cmath>

#include "xp/creation.hpp"
#include "xp/user_kernel.hpp"

namespace xp::optimizer {

namespace {

std::string known_options(const std::map<std::string, double*>& options) {
  std::string list;
  for (const auto& [name, member] : options) list += (list.empty() ? "" : ", ") + name;
  return list;
}

// Clipping inside the kernels: a comparison, no math library call.
constexpr std::string_view kClip = "if (clip >= 0) g = g > clip ? clip : (g < -clip ? -clip : g); ";

}  // namespace

void Optimizer::read_options(const Options& options, std::map<std::string, double*> all) {
  all.emplace("learning_rate", &learning_rate);
  all.emplace("wd", &wd);
  all.emplace("rescale_grad", &rescale_grad);
  all.emplace("clip_gradient", &clip_gradient);
  for (const auto& [option, value] : options) {
    const auto found = all.find(option);
    XP_CHECK(found != all.end(), ValueError, name_, ": unknown option '", option, "' (it takes ", known_options(all),
             ")");
    *found->second = value;
  }
}

SGD::SGD(ByName, const Options& options) : Optimizer("sgd", 0.01) { read_options(options, {{"momentum", &momentum}}); }

SGD::SGD(const SGDOptions& options)
    : SGD(by_name, Options{{"learning_rate", options.learning_rate},
                           {"momentum", options.momentum},
                           {"wd", options.wd},
                           {"rescale_grad", options.rescale_grad},
                           {"clip_gradient", options.clip_gradient}}) {}

std::vector<ndarray<>> SGD::create_state(const ndarray<>& weight) const {
  if (momentum == 0.0) return {};
  return {ndarray<>(detail::zeros(weight.shape(), weight.dtype(), weight.device()))};
}

void SGD::update(const ndarray<>& weight, const ndarray<>& grad, const std::vector<ndarray<>>& state,
                 std::int64_t) const {
  static const ElementwiseKernel plain(
      "T grad, T lr, T wd, T rescale, T clip", "T weight",
      std::string("T g = rescale * grad; ") + std::string(kClip) + "weight -= lr * (g + wd * weight)", "xp_sgd_update");
  static const ElementwiseKernel with_momentum("T grad, T lr, T momentum, T wd, T rescale, T clip", "T weight, T mom",
                                               std::string("T g = rescale * grad; ") + std::string(kClip) +
                                                   "mom = momentum * mom - lr * (g + wd * weight); weight += mom",
                                               "xp_sgd_mom_update");
  if (state.empty()) plain.outputs(grad, learning_rate, wd, rescale_grad, clip_gradient, weight);
  else with_momentum.outputs(grad, learning_rate, momentum, wd, rescale_grad, clip_gradient, weight, state[0]);
}

Adam::Adam(ByName, const Options& options) : Optimizer("adam", 0.001) {
  read_options(options, {{"beta1", &beta1}, {"beta2", &beta2}, {"epsilon", &epsilon}});
}

Adam::Adam(const AdamOptions& options)
    : Adam(by_name, Options{{"learning_rate", options.learning_rate},
                            {"beta1", options.beta1},
                            {"beta2", options.beta2},
                            {"epsilon", options.epsilon},
                            {"wd", options.wd},
                            {"rescale_grad", options.rescale_grad},
                            {"clip_gradient", options.clip_gradient}}) {}

std::vector<ndarray<>> Adam::create_state(const ndarray<>& weight) const {
  return {ndarray<>(detail::zeros(weight.shape(), weight.dtype(), weight.device())),
          ndarray<>(detail::zeros(weight.shape(), weight.dtype(), weight.device()))};
}

void Adam::update(const ndarray<>& weight, const ndarray<>& grad, const std::vector<ndarray<>>& state,
                  std::int64_t step) const {
  static const ElementwiseKernel kernel(
      "T grad, T lr, T beta1, T beta2, T epsilon, T wd, T rescale, T clip", "T weight, T mean, T var",
      std::string("T g = rescale * grad + wd * weight; ") + std::string(kClip) +
          "mean = beta1 * mean + (1 - beta1) * g; var = beta2 * var + (1 - beta2) * g * g; "
          "weight -= lr * mean / (sqrt(var) + epsilon)",
      "xp_adam_update");
  const double t = static_cast<double>(step);
  const double lr = learning_rate * std::sqrt(1.0 - std::pow(beta2, t)) / (1.0 - std::pow(beta1, t));
  kernel.outputs(grad, lr, beta1, beta2, epsilon, wd, rescale_grad, clip_gradient, weight, state[0], state[1]);
}

std::unique_ptr<Optimizer> create(const std::string& name, const Options& options) {
  std::string lower = name;
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (lower == "sgd") return std::make_unique<SGD>(options);
  if (lower == "adam") return std::make_unique<Adam>(options);
  throw ValueError("Cannot find optimizer ", name, " (xparray has sgd and adam)");
}

}  // namespace xp::optimizer
