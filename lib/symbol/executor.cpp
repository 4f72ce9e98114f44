#include "xp/executor.hpp"

#include <map>

#include "symbol/graph.hpp"
#include "symbol/operators.hpp"
#include "xp/autograd.hpp"

namespace xp {

using sym::Node;
using sym::Op;

// values[0, arguments) are the arguments, then the auxiliary states, then one per step.
struct Executor::Plan {
  struct Step {
    const Node* node;
    std::vector<std::size_t> inputs;  // into values
  };
  sym::Symbol symbol;
  std::size_t arguments = 0;
  std::size_t aux = 0;
  std::vector<Step> steps;
  std::vector<std::size_t> heads;
  std::size_t values() const noexcept { return arguments + aux + steps.size(); }

  explicit Plan(const sym::Symbol& s) : symbol(s) {
    const std::vector<const Node*> order = sym::topological_order(s.heads());
    const sym::Variables variables = sym::variables_of(order);
    arguments = variables.arguments.size();
    aux = variables.auxiliary_states.size();
    std::map<const Node*, std::size_t> position;
    for (std::size_t i = 0; i < arguments; ++i) position[variables.arguments[i]] = i;
    for (std::size_t i = 0; i < aux; ++i) position[variables.auxiliary_states[i]] = arguments + i;
    for (const Node* node : order) {
      if (node->op == Op::variable) continue;
      Step step{node, {}};
      for (const auto& input : node->inputs) step.inputs.push_back(position.at(input.get()));
      position[node] = arguments + aux + steps.size();
      steps.push_back(std::move(step));
    }
    for (const auto& head : s.heads()) heads.push_back(position.at(head.get()));
  }
};

Executor::Executor(const sym::Symbol& symbol, Device device, std::vector<ndarray<>> args, std::vector<ndarray<>> grads,
                   std::vector<GradReq> reqs, std::vector<ndarray<>> aux)
    : plan_(std::make_shared<const Plan>(symbol)),
      device_(device),
      args_(std::move(args)),
      grads_(std::move(grads)),
      aux_(std::move(aux)),
      reqs_(std::move(reqs)) {
  const std::vector<std::string> arg_names = symbol.list_arguments();
  const std::vector<std::string> aux_names = symbol.list_auxiliary_states();
  XP_ASSERT(args_.size() == arg_names.size() && grads_.size() == args_.size() && reqs_.size() == args_.size() &&
            aux_.size() == aux_names.size());
  variables_ = args_;
  for (std::size_t i = 0; i < args_.size(); ++i) {
    arg_dict_.emplace(arg_names[i], args_[i]);
    if (reqs_[i] == GradReq::null) continue;
    grad_dict_.emplace(arg_names[i], grads_[i]);
    // A variable of its own over the argument's buffer: the caller's array is left as it was.
    variables_[i] = args_[i].detach();
    autograd::mark_variable(variables_[i], grads_[i], reqs_[i]);
  }
  for (std::size_t i = 0; i < aux_.size(); ++i) aux_dict_.emplace(aux_names[i], aux_[i]);
}

const sym::Symbol& Executor::symbol() const noexcept { return plan_->symbol; }

void Executor::forward(bool is_train) {
  const auto run = [&](const std::vector<ndarray<>>& arguments) {
    std::vector<ndarray<>> values(plan_->values());
    std::copy(arguments.begin(), arguments.end(), values.begin());
    std::copy(aux_.begin(), aux_.end(), values.begin() + static_cast<std::ptrdiff_t>(plan_->arguments));
    std::vector<ndarray<>> inputs;
    std::size_t next = plan_->arguments + plan_->aux;
    for (const Plan::Step& step : plan_->steps) {
      inputs.clear();
      for (const std::size_t i : step.inputs) inputs.push_back(values[i]);
      values[next] = sym::forward(*step.node, inputs);
      if (monitor_) monitor_(step.node->name + "_output", values[next]);
      ++next;
    }
    outputs_.clear();
    for (const std::size_t head : plan_->heads) outputs_.push_back(values[head]);
  };
  if (is_train) {
    autograd::record recording(/*train_mode=*/true);
    run(variables_);
  } else {
    autograd::pause not_recording(/*train_mode=*/false);
    run(args_);
  }
  recorded_ = is_train;
}

void Executor::backward(const std::vector<ndarray<>>& head_grads) {
  XP_CHECK(recorded_, ValueError, "Executor.backward: there is no forward(is_train=true) to run backward from");
  XP_CHECK(head_grads.empty() || head_grads.size() == outputs_.size(), ValueError,
           "Executor.backward: ", head_grads.size(), " head gradients for ", outputs_.size(), " outputs");
  recorded_ = false;
  if (grad_dict_.empty()) return;
  autograd::backward(outputs_, head_grads);
}

void Executor::copy_params_from(const ArrayDict& arg_params, const ArrayDict& aux_params, bool allow_extra_params) {
  const auto copy = [](const ndarray<>& source, const ndarray<>& target) {
    XP_CHECK(source.shape() == target.shape(), ValueError, "copy_params_from: a value of shape ", source.shape(),
             " for an array of shape ", target.shape());
    (source.dtype() == target.dtype() ? source : source.astype(target.dtype())).copyto(target);
  };
  for (const auto& [name, value] : arg_params) {
    const auto found = arg_dict_.find(name);
    if (found != arg_dict_.end()) copy(value, found->second);
    else XP_CHECK(allow_extra_params, ValueError, "Find name \"", name, "\" that is not in the arguments");
  }
  for (const auto& [name, value] : aux_params) {
    const auto found = aux_dict_.find(name);
    if (found != aux_dict_.end()) copy(value, found->second);
    else XP_CHECK(allow_extra_params, ValueError, "Find name ", name, " that is not in the auxiliary states");
  }
}

}  // namespace xp
