#include <algorithm>

#include "parallel/device_workers.hpp"
#include "xp/creation.hpp"
#include "xp/executor_manager.hpp"
#include "xp/warnings.hpp"

namespace xp {

namespace {

bool contains(const std::vector<std::string>& names, const std::string& name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

// An array of `shape` and `type` over the front of `buffer` when it is large enough (bucketing's
// shared data arrays, as MXNet), else nothing.
std::optional<ndarray<>> view_into(const ndarray<>& buffer, const Shape& shape, xp::dtype type) {
  std::int64_t size = 1;
  for (int a = 0; a < shape.ndim(); ++a) size *= shape[a];
  if (buffer.dtype() != type || static_cast<std::int64_t>(buffer.size()) < size) return std::nullopt;
  return buffer.reshape({-1})(slice(0, size)).reshape(shape);
}

void check_names(const sym::Symbol& symbol, const std::vector<std::string>& arg_names,
                 const std::vector<std::string>& param_names, std::size_t devices, std::size_t slices) {
  XP_CHECK(arg_names == symbol.list_arguments(), ValueError,
           "DataParallelExecutorGroup: arg_names must be the symbol's list_arguments()");
  XP_CHECK(devices != 0 && devices == slices, ValueError, "DataParallelExecutorGroup: ", slices, " slices for ",
           devices, " devices");
  for (const std::string& name : param_names)
    XP_CHECK(contains(arg_names, name), ValueError, "DataParallelExecutorGroup: parameter '", name,
             "' is not an argument of the symbol");
}

// The inputs' shapes for one device: its slice's extent on the batch axis.
sym::ShapeDict slice_shapes(const std::vector<io::DataDesc>& inputs, std::int64_t batch) {
  sym::ShapeDict shapes;
  for (const io::DataDesc& input : inputs) {
    Shape shape = input.shape;
    XP_CHECK(shape.ndim() >= 1, ValueError, "DataParallelExecutorGroup: input '", input.name, "' has no batch axis");
    shape[0] = batch;
    shapes[input.name] = shape;
  }
  return shapes;
}

// A device's array for the input `name`: a view of the one the buckets share when it is large enough,
// else a new one, which they share from then on (MXNet's warning when a larger bucket comes later).
ndarray<> input_array(std::map<std::string, ndarray<>>& shared, const std::string& name, const Shape& shape,
                      xp::dtype type, Device device) {
  const auto existing = shared.find(name);
  if (existing != shared.end()) {
    if (std::optional<ndarray<>> view = view_into(existing->second, shape, type)) return *view;
    utils::warn(detail::join_message("bucketing: data \"", name, "\" has a shape ", shape,
                                     ", which is larger than already allocated shape ", existing->second.shape(),
                                     ". Need to re-allocate. Consider putting default_bucket_key to be the bucket "
                                     "taking the largest input for better memory sharing."));
  }
  return shared[name] = xp::zeros(shape, type, device);
}

// What one device's executor is bound with.
struct Bindings {
  std::map<std::string, ndarray<>> args, grads, aux;
  std::map<std::string, GradReq> reqs;
};

// A parameter (every argument that is not an input, as MXNet's _bind_exec): the shared group's arrays
// (another bucket of the same model), else zeros.
void bind_parameter(Bindings& bound, const std::string& name, const Shape& shape, const Executor* base, xp::dtype type,
                    Device device) {
  bound.reqs[name] = GradReq::write;
  if (base) {
    bound.args[name] = base->arg_dict().at(name);
    bound.grads[name] = base->grad_dict().at(name);
    XP_CHECK(bound.args[name].shape() == shape, ValueError, "DataParallelExecutorGroup: '", name, "' has shape ", shape,
             " in this bucket but ", bound.args[name].shape(), " in the shared one");
  } else {
    bound.args[name] = xp::zeros(shape, type, device);
    bound.grads[name] = xp::zeros(shape, type, device);
  }
}

// [name][device] from one of each executor's dictionaries.
ArraysByDevice by_device(const std::vector<std::string>& names, const std::vector<Executor>& execs,
                         const ArrayDict& (Executor::*dict)() const noexcept) {
  ArraysByDevice out;
  for (const std::string& name : names) {
    out.emplace_back();
    for (const Executor& exe : execs) out.back().push_back((exe.*dict)().at(name));
  }
  return out;
}

}  // namespace

DataParallelExecutorGroup::DataParallelExecutorGroup(const sym::Symbol& symbol,
                                                     const std::vector<std::string>& arg_names,
                                                     const std::vector<std::string>& param_names,
                                                     const std::vector<Device>& ctx, std::vector<BatchSlice> slices,
                                                     const io::DataIter& train_data,
                                                     DataParallelExecutorGroup* shared_group)
    : DataParallelExecutorGroup(symbol, arg_names, param_names, ctx, std::move(slices), train_data.provide_data(),
                                train_data.provide_label(), shared_group) {}

DataParallelExecutorGroup::DataParallelExecutorGroup(
    const sym::Symbol& symbol, const std::vector<std::string>& arg_names, const std::vector<std::string>& param_names,
    const std::vector<Device>& ctx, std::vector<BatchSlice> slices, const std::vector<io::DataDesc>& data_shapes,
    const std::vector<io::DataDesc>& label_shapes, DataParallelExecutorGroup* shared_group)
    : slices_(std::move(slices)), aux_names_(symbol.list_auxiliary_states()) {
  check_names(symbol, arg_names, param_names, ctx.size(), slices_.size());
  for (const std::string& name : arg_names)  // the symbol's order, not the caller's
    if (contains(param_names, name)) param_names_.push_back(name);
  std::vector<io::DataDesc> inputs = data_shapes;
  inputs.insert(inputs.end(), label_shapes.begin(), label_shapes.end());
  for (const io::DataDesc& d : data_shapes) data_names_.push_back(d.name);
  for (const io::DataDesc& d : label_shapes) label_names_.push_back(d.name);
  const xp::dtype param_type =
      !data_shapes.empty() && is_floating(data_shapes[0].type) ? data_shapes[0].type : xp::dtype::float32;

  workers_ = shared_group ? shared_group->workers_ : std::make_shared<parallel::DeviceWorkers>(ctx);
  shared_data_arrays_ =
      shared_group ? shared_group->shared_data_arrays_ : std::vector<std::map<std::string, ndarray<>>>(ctx.size());
  for (std::size_t d = 0; d < ctx.size(); ++d) {
    const sym::InferredShapes inferred = symbol.infer_shape(slice_shapes(inputs, slices_[d].size()));
    const Executor* base = shared_group ? &shared_group->execs_[d] : nullptr;
    Bindings bound;
    for (std::size_t a = 0; a < arg_names.size(); ++a) {
      const std::string& name = arg_names[a];
      const auto input =
          std::find_if(inputs.begin(), inputs.end(), [&](const io::DataDesc& i) { return i.name == name; });
      if (input != inputs.end()) {
        bound.args[name] = input_array(shared_data_arrays_[d], name, inferred.arguments[a], input->type, ctx[d]);
      } else {
        bind_parameter(bound, name, inferred.arguments[a], base, param_type, ctx[d]);
      }
    }
    for (std::size_t a = 0; a < aux_names_.size(); ++a)
      bound.aux[aux_names_[a]] =
          base ? base->aux_dict().at(aux_names_[a]) : xp::zeros(inferred.auxiliary_states[a], param_type, ctx[d]);
    execs_.push_back(symbol.bind(ctx[d], bound.args, bound.grads, bound.reqs, bound.aux));
  }
  param_arrays_ = by_device(param_names_, execs_, &Executor::arg_dict);
  grad_arrays_ = by_device(param_names_, execs_, &Executor::grad_dict);
  aux_arrays_ = by_device(aux_names_, execs_, &Executor::aux_dict);
}

DataParallelExecutorGroup::~DataParallelExecutorGroup() = default;

void DataParallelExecutorGroup::load_data_batch(const io::DataBatch& data_batch) {
  XP_CHECK(data_batch.data.size() == data_names_.size() && data_batch.label.size() == label_names_.size(), ValueError,
           "load_data_batch: the batch has ", data_batch.data.size(), " data and ", data_batch.label.size(),
           " label arrays, the executors take ", data_names_.size(), " and ", label_names_.size());
  for (const auto* arrays : {&data_batch.data, &data_batch.label})
    for (const ndarray<>& source : *arrays)
      XP_CHECK(source.ndim() >= 1 && source.shape()[0] == slices_.back().end, ValueError,
               "Batch size miss match. Expected ", slices_.back().end, ", got ",
               source.ndim() >= 1 ? source.shape()[0] : 0);
  workers_->run([&](std::size_t d) {
    const BatchSlice s = slices_[d];
    const ArrayDict& args = execs_[d].arg_dict();
    for (std::size_t i = 0; i < data_names_.size(); ++i)
      data_batch.data[i](slice(s.begin, s.end)).copyto(args.at(data_names_[i]));
    for (std::size_t i = 0; i < label_names_.size(); ++i)
      data_batch.label[i](slice(s.begin, s.end)).copyto(args.at(label_names_[i]));
  });
}

void DataParallelExecutorGroup::forward(bool is_train) {
  workers_->run([&](std::size_t d) { execs_[d].forward(is_train); });
}

void DataParallelExecutorGroup::backward() {
  workers_->run([&](std::size_t d) { execs_[d].backward(); });
}

void DataParallelExecutorGroup::update_metric(metric::EvalMetric& metric, const std::vector<ndarray<>>& labels) {
  for (std::size_t d = 0; d < execs_.size(); ++d) {
    std::vector<ndarray<>> slice_labels;
    for (const ndarray<>& label : labels) slice_labels.push_back(label(slice(slices_[d].begin, slices_[d].end)));
    metric.update(slice_labels, execs_[d].outputs());
  }
}

void DataParallelExecutorGroup::update_metric(metric::EvalMetric& metric, const ArraysByDevice& pre_sliced_labels) {
  XP_CHECK(pre_sliced_labels.size() == execs_.size(), ValueError, "update_metric: pre-sliced labels for ",
           pre_sliced_labels.size(), " devices, the group has ", execs_.size());
  for (std::size_t d = 0; d < execs_.size(); ++d) metric.update(pre_sliced_labels[d], execs_[d].outputs());
}

}  // namespace xp
