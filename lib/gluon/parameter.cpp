#include "xp/parameter.hpp"

#include <algorithm>

#include "gluon/device_list.hpp"
#include "xp/autograd.hpp"
#include "xp/creation.hpp"
#include "xp/math.hpp"
#include "xp/warnings.hpp"

namespace xp::gluon {

namespace {

// A shape agrees with a parameter's partly known one: no rank yet, or the same rank with every known
// (non-zero) extent equal.
bool fits(const Shape& known, const Shape& shape) {
  bool compatible = known.ndim() == 0 || known.ndim() == shape.ndim();
  for (int axis = 0; compatible && axis < known.ndim(); ++axis)
    compatible = known[axis] == 0 || known[axis] == shape[axis];
  return compatible;
}

bool shape_known(const Shape& shape) {
  return shape.ndim() > 0 && std::none_of(shape.begin(), shape.end(), [](std::int64_t e) { return e == 0; });
}

}  // namespace

GradReq grad_req_from(const std::string& name) {
  if (name == "write") return GradReq::write;
  if (name == "add") return GradReq::add;
  if (name == "null") return GradReq::null;
  throw ValueError("grad_req must be one of 'write', 'add', or 'null', but got '", name, "'");
}

struct Parameter::State {
  std::string name;
  Shape shape;
  GradReq grad_req;
  dtype type;
  std::shared_ptr<const initializer::Initializer> init;
  bool allow_deferred_init;
  std::vector<Device> devices;  // of the copies, or those a deferred initialization waits to fill
  std::vector<ndarray<>> data, grad;
  std::shared_ptr<const initializer::Initializer> deferred_init;  // non-null while deferred
};

Parameter::Parameter(std::string name, Shape shape, GradReq grad_req, dtype type,
                     std::shared_ptr<const initializer::Initializer> init, bool allow_deferred_init)
    : state_(std::make_shared<State>(
          State{std::move(name), shape, grad_req, type, std::move(init), allow_deferred_init, {}, {}, {}, nullptr})) {}

const std::string& Parameter::name() const noexcept { return state_->name; }
const Shape& Parameter::shape() const noexcept { return state_->shape; }
dtype Parameter::data_type() const noexcept { return state_->type; }
GradReq Parameter::grad_req() const noexcept { return state_->grad_req; }
const std::shared_ptr<const initializer::Initializer>& Parameter::init() const noexcept { return state_->init; }
bool Parameter::is_initialized() const noexcept { return !state_->data.empty(); }
bool Parameter::is_deferred() const noexcept { return state_->deferred_init != nullptr; }

void Parameter::set_shape(const Shape& shape) {
  State& s = *state_;
  XP_CHECK(fits(s.shape, shape), ValueError, "Expected shape ", shape, " is incompatible with given shape ", s.shape,
           " for Parameter '", s.name, "'.");
  s.shape = shape;
}

void Parameter::initialize(const initializer::Initializer* init, std::vector<Device> devices,
                           const initializer::Initializer& default_init, bool force_reinit) {
  State& s = *state_;
  if (is_initialized() && !force_reinit) {
    utils::warn(detail::join_message("Parameter '", s.name,
                                     "' is already initialized, ignoring. Set force_reinit=True to re-initialize."));
    return;
  }
  if (devices.empty()) devices.push_back(current_device());
  const initializer::Initializer& chosen = init ? *init : s.init ? *s.init : default_init;
  s.devices = std::move(devices);
  if (!shape_known(s.shape)) {
    XP_CHECK(s.allow_deferred_init, ValueError, "Cannot initialize Parameter '", s.name,
             "' because it has invalid shape: ", s.shape, ".");
    s.deferred_init = &chosen == s.init.get() ? s.init : chosen.clone();  // it runs after this call
    return;
  }
  create(chosen(s.shape, s.type, cpu(0)), s.devices);
}

void Parameter::finish_deferred_init() {
  State& s = *state_;
  if (!s.deferred_init) return;
  XP_CHECK(shape_known(s.shape), ValueError, "Cannot initialize Parameter '", s.name,
           "' because it has invalid shape: ", s.shape, ". Please specify in_units, in_channels, etc for `Block`s.");
  const auto init = std::move(s.deferred_init);
  s.deferred_init = nullptr;
  create((*init)(s.shape, s.type, cpu(0)), s.devices);
}

void Parameter::create(const ndarray<>& value, const std::vector<Device>& devices) {
  State& s = *state_;
  s.devices = devices;
  s.data.clear();
  s.grad.clear();
  for (Device d : devices) {
    s.data.push_back(value.copyto(d));
    if (s.grad_req == GradReq::null) continue;
    s.grad.push_back(xp::zeros(s.shape, s.type, d));
    autograd::mark_variable(s.data.back(), s.grad.back(), s.grad_req);
  }
}

void Parameter::check_initialized() const {
  const State& s = *state_;
  if (!s.data.empty()) return;
  if (s.deferred_init)
    throw DeferredInitializationError(
        "Parameter '", s.name,
        "' has not been initialized yet because initialization was deferred. Actual initialization happens during "
        "the first forward pass. Please pass one batch of data through the network before accessing Parameters. "
        "You can also avoid deferred initialization by specifying in_units, num_features, etc., for network layers.");
  throw RuntimeError("Parameter '", s.name,
                     "' has not been initialized. Note that you should initialize parameters and create Trainer with "
                     "Block.collect_params() instead of Block.params because the later does not include Parameters of "
                     "nested child Blocks");
}

std::size_t Parameter::index_of(Device device) const {
  check_initialized();
  const State& s = *state_;
  const auto found = std::find(s.devices.begin(), s.devices.end(), device);
  if (found == s.devices.end())
    throw RuntimeError("Parameter '", s.name, "' was not initialized on context ", device,
                       ". It was only initialized on ", device_list(s.devices), ".");
  return static_cast<std::size_t>(found - s.devices.begin());
}

ndarray<> Parameter::data() const {
  check_initialized();
  return state_->data.size() == 1 ? state_->data[0] : data(current_device());
}

ndarray<> Parameter::data(Device device) const { return state_->data[index_of(device)]; }

ndarray<> Parameter::grad() const {
  check_initialized();
  return state_->data.size() == 1 ? grad(state_->devices[0]) : grad(current_device());
}

ndarray<> Parameter::grad(Device device) const {
  const std::size_t i = index_of(device);
  XP_CHECK(state_->grad_req != GradReq::null, RuntimeError, "Cannot get gradient array for Parameter '", state_->name,
           "' because grad_req='null'");
  return state_->grad[i];
}

std::vector<ndarray<>> Parameter::list_data() const {
  check_initialized();
  return state_->data;
}

std::vector<ndarray<>> Parameter::list_grad() const {
  check_initialized();
  XP_CHECK(state_->grad_req != GradReq::null, RuntimeError, "Cannot get gradient array for Parameter '", state_->name,
           "' because grad_req='null'");
  return state_->grad;
}

std::vector<Device> Parameter::list_ctx() const {
  const State& s = *state_;
  XP_CHECK(!s.data.empty() || s.deferred_init, RuntimeError, "Parameter '", s.name, "' has not been initialized");
  return s.devices;
}

void Parameter::set_grad_buffers(const std::vector<ndarray<>>& grads) {
  const std::vector<ndarray<>> current = list_grad();
  State& s = *state_;
  XP_CHECK(grads.size() == current.size(), ValueError, "Parameter '", s.name, "': ", grads.size(),
           " gradient buffers for ", current.size(), " devices");
  for (std::size_t i = 0; i < grads.size(); ++i)
    XP_CHECK(grads[i].shape() == s.shape && grads[i].dtype() == s.type && grads[i].device() == s.devices[i], ValueError,
             "Parameter '", s.name, "': a gradient buffer of ", grads[i].dtype(), " ", grads[i].shape(), " on ",
             grads[i].device(), " for ", s.type, " ", s.shape, " on ", s.devices[i]);
  for (std::size_t i = 0; i < grads.size(); ++i) {
    // The values move, and so does their freshness: a Trainer that packs its gradients at its first step
    // (after deferred initialisation) packs those of the backward that just ran.
    const bool fresh = autograd::has_fresh_grad(s.data[i]);
    current[i].copyto(grads[i]);
    s.grad[i] = grads[i];
    autograd::mark_variable(s.data[i], s.grad[i], s.grad_req);
    autograd::set_fresh_grad(s.data[i], fresh);
  }
}

void Parameter::zero_grad() {
  for (const ndarray<>& g : state_->grad) xp::zeros(g.shape(), g.dtype(), g.device()).copyto(g);
}

void Parameter::reset_ctx(std::vector<Device> devices) {
  State& s = *state_;
  if (s.deferred_init) {
    s.devices = std::move(devices);
    return;
  }
  XP_CHECK(!s.data.empty(), RuntimeError, "Cannot reset context for Parameter '", s.name,
           "' because it has not been initialized.");
  create(reduce(), devices);
}

ndarray<> Parameter::reduce() const {
  const std::vector<ndarray<>> copies = list_data();
  ndarray<> total = copies[0].copyto(cpu(0));
  if (copies.size() == 1) return total;
  for (std::size_t i = 1; i < copies.size(); ++i) total = total + copies[i].copyto(cpu(0));
  return (total / static_cast<double>(copies.size())).astype(state_->type);
}

void Parameter::set_data(const ndarray<>& value) {
  check_initialized();
  for (const ndarray<>& copy : state_->data) {
    XP_CHECK(value.shape() == copy.shape(), ValueError, "set_data: Parameter '", state_->name, "' has shape ",
             copy.shape(), ", not ", value.shape());
    value.astype(copy.dtype()).copyto(copy);
  }
}

void Parameter::load_init(const ndarray<>& value, std::vector<Device> devices) {
  State& s = *state_;
  XP_CHECK(fits(s.shape, value.shape()), ValueError, "Failed loading Parameter '", s.name,
           "' from saved params: shape incompatible expected ", s.shape, " vs saved ", value.shape());
  XP_CHECK(value.dtype() == s.type, ValueError, "Failed loading Parameter '", s.name,
           "' from saved params: dtype incompatible expected ", s.type, " vs saved ", value.dtype());
  if (is_initialized()) {
    const auto same_devices = [&] {
      return std::is_permutation(devices.begin(), devices.end(), s.devices.begin(), s.devices.end());
    };
    XP_CHECK(devices.empty() || same_devices(), ValueError, "Failed to load Parameter '", s.name, "' on ",
             device_list(devices), " because it was previous initialized on ", device_list(s.devices), ".");
    set_data(value);
    return;
  }
  if (devices.empty()) devices = s.deferred_init ? s.devices : std::vector<Device>{cpu(0)};
  s.deferred_init = nullptr;
  s.shape = value.shape();
  create(value, devices);
}

std::ostream& operator<<(std::ostream& out, const Parameter& p) {
  return out << "Parameter " << p.name() << " (shape=" << p.shape() << ", dtype=" << p.data_type() << ")";
}

void ParameterDict::add(const Parameter& p) {
  const auto [it, inserted] = params_.emplace(p.name(), p);
  XP_CHECK(inserted || it->second == p, ValueError, "Duplicate Parameter name '", p.name(), "'");
}

const Parameter& ParameterDict::operator[](const std::string& name) const {
  const auto found = params_.find(name);
  XP_CHECK(found != params_.end(), ValueError, "Parameter '", name, "' is not in this ParameterDict");
  return found->second;
}

void ParameterDict::initialize(const initializer::Initializer& init, std::vector<Device> devices,
                               bool force_reinit) const {
  for (auto [name, p] : params_) p.initialize(nullptr, devices, init, force_reinit);
}

void ParameterDict::zero_grad() const {
  for (auto [name, p] : params_) p.zero_grad();  // none for grad_req null
}

void ParameterDict::reset_ctx(const std::vector<Device>& devices) const {
  for (auto [name, p] : params_) p.reset_ctx(devices);
}

}  // namespace xp::gluon
