#include "xp/trainer.hpp"

#include <algorithm>

#include "gluon/device_list.hpp"
#include "xp/autograd.hpp"
#include "xp/creation.hpp"
#include "xp/index.hpp"
#include "xp/math.hpp"

namespace xp::gluon {

Trainer::Trainer(const ParameterDict& params, std::string_view optimizer, const optimizer::Options& options,
                 const std::string& kvstore)
    : Trainer(params, optimizer::create(std::string(optimizer), options), kvstore) {}

Trainer::Trainer(const ParameterDict& params, const TrainerOptions& options)
    : Trainer(params, options.optimizer, options.optimizer_params, options.kvstore) {}

Trainer::Trainer(const ParameterDict& params, std::unique_ptr<optimizer::Optimizer> optimizer,
                 const std::string& kvstore)
    : optimizer_(std::move(optimizer)), kvstore_(kvstore::create(kvstore)), scale_(optimizer_->rescale_grad) {
  for (const auto& [name, p] : params) slots_.push_back({p, {}, 0});
  // Across processes every replica must start from rank 0's values before the first forward: now,
  // unless some parameter still waits for its shape (then at the first step).
  const bool all_initialized =
      std::all_of(slots_.begin(), slots_.end(), [](const Slot& slot) { return slot.param.is_initialized(); });
  if (kvstore_.num_workers() > 1 && all_initialized) init_kvstore();
}

void Trainer::init_kvstore() {
  std::vector<std::string> keys;
  std::vector<ndarray<>> values;
  for (const Slot& slot : slots_) {
    keys.push_back(slot.param.name());
    values.push_back(slot.param.list_data().front());
  }
  kvstore_.init(keys, values);  // across processes: every process's keys checked, rank 0's values broadcast
  if (kvstore_.num_workers() > 1) {
    for (const Slot& slot : slots_) kvstore_.pull(slot.param.name(), slot.param.list_data());
    pack_gradients();
  }
  kvstore_ready_ = true;
}

void Trainer::pack_gradients() {
  std::vector<Parameter> params;
  for (const Slot& slot : slots_)
    if (slot.param.grad_req() != GradReq::null) params.push_back(slot.param);
  if (params.empty()) return;
  const std::vector<Device> devices = params.front().list_ctx();
  // One buffer per (device, dtype), the parameters in the order allreduce_grads hands them over.
  for (std::size_t d = 0; d < devices.size(); ++d) {
    std::vector<xp::dtype> types;
    for (const Parameter& p : params) {
      const xp::dtype type = p.list_grad()[d].dtype();
      if (std::find(types.begin(), types.end(), type) == types.end()) types.push_back(type);
    }
    for (const xp::dtype type : types) {
      std::int64_t total = 0;
      for (const Parameter& p : params)
        if (p.list_grad()[d].dtype() == type) total += static_cast<std::int64_t>(p.list_grad()[d].size());
      const ndarray<> buffer = xp::zeros({total}, type, devices[d]);
      std::int64_t at = 0;
      for (Parameter& p : params) {
        std::vector<ndarray<>> grads = p.list_grad();
        if (grads[d].dtype() != type) continue;
        const auto n = static_cast<std::int64_t>(grads[d].size());
        grads[d] = buffer(slice(at, at + n)).reshape(grads[d].shape());
        p.set_grad_buffers(grads);
        at += n;
      }
    }
  }
}

void Trainer::check_devices() {
  if (devices_checked_) return;
  std::vector<Device> previous;
  for (const Slot& slot : slots_) {
    std::vector<Device> devices = slot.param.list_ctx();
    XP_CHECK(&slot == &slots_.front() || devices == previous, ValueError,
             "All Parameters must be initialized on the same set of contexts, but Parameter ", slot.param.name(),
             " is initialized on ", device_list(devices), " while previous Parameters are initialized on ",
             device_list(previous), ".");
    previous = std::move(devices);
  }
  devices_checked_ = true;
}

void Trainer::step(double batch_size, bool ignore_stale_grad) {
  check_devices();
  allreduce_grads();
  update(batch_size, ignore_stale_grad);
}

void Trainer::allreduce_grads() {
  check_devices();
  autograd::pause not_recorded;
  const bool one_replica =
      kvstore_.num_workers() == 1 && (slots_.empty() || slots_.front().param.list_ctx().size() == 1);
  if (one_replica) return;
  if (!kvstore_ready_) init_kvstore();
  // Every gradient at once: across processes the kvstore fuses them into buckets.
  std::vector<std::string> keys;
  std::vector<std::vector<ndarray<>>> grads;
  for (const Slot& slot : slots_) {
    if (slot.param.grad_req() == GradReq::null) continue;
    keys.push_back(slot.param.name());
    grads.push_back(slot.param.list_grad());
  }
  kvstore_.pushpull(keys, grads);
}

void Trainer::update(double batch_size, bool ignore_stale_grad) {
  check_devices();
  XP_CHECK(batch_size > 0, ValueError, "Trainer: batch_size must be positive, got ", batch_size);
  autograd::pause not_recorded;
  // Across processes batch_size is this process's share: the sum covers every process's batch.
  optimizer_->rescale_grad = scale_ / (batch_size * kvstore_.num_workers());
  for (Slot& slot : slots_) {
    if (slot.param.grad_req() == GradReq::null) continue;
    const std::vector<ndarray<>> data = slot.param.list_data();
    const std::vector<ndarray<>> grads = slot.param.list_grad();
    if (!ignore_stale_grad)
      for (const ndarray<>& copy : data)
        XP_CHECK(autograd::has_fresh_grad(copy), UserWarning, "Gradient of Parameter `", slot.param.name(),
                 "` on context ", copy.device(),
                 " has not been updated by backward since last `step`. This could mean a bug in your model that "
                 "made it only use a subset of the Parameters (Blocks) for this iteration. If you are intentionally "
                 "only using a subset, call step with ignore_stale_grad=True to suppress this warning and skip "
                 "updating of Parameters with stale gradient");
    if (slot.state.empty())
      for (const ndarray<>& copy : data) slot.state.push_back(optimizer_->create_state(copy));
    bool updated = false;
    for (std::size_t d = 0; d < data.size(); ++d) {
      if (!autograd::has_fresh_grad(data[d])) continue;  // stale, and ignored
      if (!updated) ++slot.updates;
      updated = true;
      optimizer_->update(data[d], grads[d], slot.state[d], slot.updates);
      autograd::set_fresh_grad(data[d], false);
    }
  }
}

}  // namespace xp::gluon
