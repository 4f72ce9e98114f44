// infer_shape, and binding a symbol to arrays (bind, simple_bind).
#include <map>
#include <set>

#include "support/shape_check.hpp"
#include "symbol/graph.hpp"
#include "symbol/operators.hpp"
#include "xp/creation.hpp"
#include "xp/executor.hpp"

namespace xp::sym {

namespace {

std::string joined(const std::vector<std::string>& names) {
  std::string out = "[";
  for (std::size_t i = 0; i < names.size(); ++i) out += (i ? ", '" : "'") + names[i] + "'";
  return out + "]";
}

// MXNet's executor_manager._check_arguments, at every bind: arrays are found by name. Its second
// check, of auxiliary state names, cannot fail here: a BatchNorm's states are named after it, as are
// its gamma and beta arguments, which collide first.
void check_unique_arguments(const std::vector<std::string>& names) {
  std::set<std::string> seen;
  for (const std::string& name : names)
    XP_CHECK(seen.insert(name).second, ValueError, "Find duplicated argument name \"", name,
             "\", please make the weight name non-duplicated(using name arguments), arguments are ", joined(names));
}

}  // namespace

InferredShapes Symbol::infer_shape(const ShapeDict& known) const {
  const std::vector<const Node*> order = topological_order(heads_);
  const Variables variables = variables_of(order);
  std::map<const Node*, std::optional<Shape>> shapes;
  std::set<std::string> names;
  for (const auto& list : {variables.arguments, variables.auxiliary_states})
    for (const Node* node : list) {
      names.insert(node->name);
      const auto given = known.find(node->name);
      shapes[node] = given != known.end() ? std::optional<Shape>(given->second) : node->shape;
      if (shapes[node]) detail::checked_numel(*shapes[node], "infer_shape: '" + node->name + "'");
    }
  for (const auto& [name, shape] : known)
    XP_CHECK(names.contains(name), ValueError, "infer_shape: '", name,
             "' is neither an argument nor an auxiliary state of the symbol; its arguments are ",
             joined(list_arguments()));
  std::vector<std::optional<Shape>> inputs;
  for (const Node* node : order) {
    if (node->op == Op::variable) continue;
    inputs.clear();
    for (const auto& input : node->inputs) inputs.push_back(shapes.at(input.get()));
    const Shape out = infer_output(*node, inputs);
    detail::checked_numel(out, "infer_shape: '" + node->name + "'");
    for (std::size_t i = 0; i < inputs.size(); ++i) shapes[node->inputs[i].get()] = inputs[i];
    shapes[node] = out;
  }
  InferredShapes result;
  const auto collect = [&](const std::vector<const Node*>& list, std::vector<Shape>& out) {
    for (const Node* node : list) {
      XP_CHECK(shapes.at(node).has_value(), ValueError, "infer_shape: cannot infer the shape of '", node->name,
               "': no operation determines it; give its shape");
      out.push_back(*shapes.at(node));
      detail::checked_numel(out.back(), "infer_shape: '" + node->name + "'");  // a weight's (hidden, inputs)
    }
  };
  collect(variables.arguments, result.arguments);
  collect(variables.auxiliary_states, result.auxiliary_states);
  for (const auto& head : heads_) result.outputs.push_back(*shapes.at(head.get()));
  return result;
}

Executor Symbol::simple_bind(Device device, const ShapeDict& shapes, GradReq grad_req, const TypeDict& types) const {
  std::map<std::string, GradReq> reqs;
  for (const std::string& name : list_arguments()) reqs[name] = grad_req;
  return simple_bind(device, shapes, reqs, types);
}

Executor Symbol::simple_bind(Device device, const ShapeDict& shapes, const std::map<std::string, GradReq>& grad_reqs,
                             const TypeDict& types) const {
  const std::vector<std::string> arg_names = list_arguments(), aux_names = list_auxiliary_states();
  check_unique_arguments(arg_names);
  const InferredShapes inferred = infer_shape(shapes);
  const auto type_of = [&](const std::string& name) {
    const auto found = types.find(name);
    return found == types.end() ? xp::dtype::float32 : found->second;
  };
  std::vector<ndarray<>> args, grads, aux;
  std::vector<GradReq> reqs;
  for (std::size_t i = 0; i < arg_names.size(); ++i) {
    const xp::dtype type = type_of(arg_names[i]);
    args.emplace_back(detail::zeros(inferred.arguments[i], type, device));
    const auto req = grad_reqs.find(arg_names[i]);
    reqs.push_back(req == grad_reqs.end() ? GradReq::null : req->second);
    grads.push_back(reqs.back() == GradReq::null ? ndarray<>()
                                                 : ndarray<>(detail::zeros(inferred.arguments[i], type, device)));
  }
  for (std::size_t i = 0; i < aux_names.size(); ++i)
    aux.emplace_back(detail::zeros(inferred.auxiliary_states[i], type_of(aux_names[i]), device));
  return Executor(*this, device, std::move(args), std::move(grads), std::move(reqs), std::move(aux));
}

Executor Symbol::bind(Device device, const std::map<std::string, ndarray<>>& args,
                      const std::map<std::string, ndarray<>>& args_grad,
                      const std::map<std::string, GradReq>& grad_reqs,
                      const std::map<std::string, ndarray<>>& aux_states) const {
  const std::vector<std::string> arg_names = list_arguments(), aux_names = list_auxiliary_states();
  check_unique_arguments(arg_names);
  const auto take = [&](const std::map<std::string, ndarray<>>& given, const std::vector<std::string>& names,
                        const char* what) {
    for (const auto& [name, array] : given)
      XP_CHECK(std::find(names.begin(), names.end(), name) != names.end(), ValueError, "bind: '", name, "' is not an ",
               what, " of the symbol, whose ", what, "s are ", joined(names));
    std::vector<ndarray<>> arrays;
    for (const std::string& name : names) {
      const auto found = given.find(name);
      XP_CHECK(found != given.end(), ValueError, "bind: no array for ", what, " '", name, "'");
      XP_CHECK(found->second.device() == device, DeviceMismatchError, "bind: ", what, " '", name, "' is on ",
               found->second.device(), " but the executor's device is ", device);
      arrays.push_back(found->second);
    }
    return arrays;
  };
  std::vector<ndarray<>> arg_arrays = take(args, arg_names, "argument");
  std::vector<ndarray<>> aux_arrays = take(aux_states, aux_names, "auxiliary state");
  ShapeDict shapes;
  for (std::size_t i = 0; i < arg_names.size(); ++i) shapes[arg_names[i]] = arg_arrays[i].shape();
  for (std::size_t i = 0; i < aux_names.size(); ++i) shapes[aux_names[i]] = aux_arrays[i].shape();
  infer_shape(shapes);  // the arrays' shapes must fit the operations
  std::vector<ndarray<>> grads(arg_names.size());
  std::vector<GradReq> reqs(arg_names.size(), GradReq::null);
  for (std::size_t i = 0; i < arg_names.size(); ++i) {
    const auto req = grad_reqs.find(arg_names[i]);
    if (req == grad_reqs.end() || req->second == GradReq::null) continue;
    const auto grad = args_grad.find(arg_names[i]);
    XP_CHECK(grad != args_grad.end(), ValueError, "bind: argument '", arg_names[i],
             "' asks for a gradient but args_grad has no array for it");
    const ndarray<>& g = grad->second;
    XP_CHECK(g.shape() == arg_arrays[i].shape() && g.dtype() == arg_arrays[i].dtype() && g.device() == device,
             ValueError, "bind: the gradient of '", arg_names[i], "' is ", g.dtype(), " ", g.shape(), " on ",
             g.device(), " but the argument is ", arg_arrays[i].dtype(), " ", arg_arrays[i].shape(), " on ", device);
    grads[i] = g;
    reqs[i] = req->second;
  }
  return Executor(*this, device, std::move(arg_arrays), std::move(grads), std::move(reqs), std::move(aux_arrays));
}

}  // namespace xp::sym
