#include "xp/executor_manager.hpp"

#include "xp/math.hpp"

namespace xp {

DataParallelExecutorManager::DataParallelExecutorManager(const sym::Symbol& symbol, const std::vector<Device>& ctx,
                                                         const io::DataIter& train_data,
                                                         const std::vector<std::string>& arg_names,
                                                         const std::vector<std::string>& param_names,
                                                         const std::vector<std::string>& aux_names,
                                                         std::vector<double> work_load_list, SymbolGenerator sym_gen)
    : ctx_(ctx), arg_names_(arg_names), param_names_(param_names), aux_names_(aux_names), sym_gen_(std::move(sym_gen)) {
  XP_CHECK(!ctx.empty(), ValueError, "DataParallelExecutorManager: no devices");
  if (work_load_list.empty()) work_load_list.assign(ctx.size(), 1.0);
  XP_CHECK(work_load_list.size() == ctx.size(), ValueError, "Invalid settings for work load: work_load_list has ",
           work_load_list.size(), " entries for ", ctx.size(), " devices");
  XP_CHECK(aux_names == symbol.list_auxiliary_states(), ValueError,
           "DataParallelExecutorManager: aux_names must be the symbol's list_auxiliary_states()");
  slices_ = split_input_slice(train_data.batch_size(), work_load_list);
  execgrp_ = std::make_unique<DataParallelExecutorGroup>(symbol, arg_names, param_names, ctx, slices_, train_data);
  curr_execgrp_ = execgrp_.get();
  if (sym_gen_) {
    const std::optional<std::int64_t> key = train_data.default_bucket_key();
    XP_CHECK(key.has_value(), ValueError,
             "DataParallelExecutorManager: sym_gen needs a data iterator with a default_bucket_key");
    default_bucket_key_ = *key;
  }
}

DataParallelExecutorManager::~DataParallelExecutorManager() = default;

const std::vector<std::string>& DataParallelExecutorManager::param_names() const noexcept {
  return execgrp_->param_names();
}
const ArraysByDevice& DataParallelExecutorManager::param_arrays() const noexcept { return execgrp_->param_arrays(); }
const ArraysByDevice& DataParallelExecutorManager::grad_arrays() const noexcept { return execgrp_->grad_arrays(); }
const ArraysByDevice& DataParallelExecutorManager::aux_arrays() const noexcept { return execgrp_->aux_arrays(); }

void DataParallelExecutorManager::install_monitor(Monitor& monitor) {
  XP_CHECK(!sym_gen_, NotImplementedError, "Monitoring is not implemented for bucketing");
  for (Executor& exe : execgrp_->train_execs()) monitor.install(exe);
}

void DataParallelExecutorManager::set_params(const ArrayDict& arg_params, const ArrayDict& aux_params) {
  for (Executor& exe : execgrp_->train_execs()) exe.copy_params_from(arg_params, aux_params);
}

void DataParallelExecutorManager::copy_to(ArrayDict& arg_params, ArrayDict& aux_params) const {
  const auto average_into = [](const std::vector<std::string>& names, const ArraysByDevice& arrays, ArrayDict& out) {
    for (std::size_t p = 0; p < names.size(); ++p) {
      const std::vector<ndarray<>>& block = arrays[p];
      ndarray<> total = block[0].copyto(cpu(0));
      for (std::size_t d = 1; d < block.size(); ++d) xp::add(total, block[d].copyto(cpu(0)), total);
      const ndarray<> weight = total / static_cast<double>(block.size());
      const auto target = out.find(names[p]);
      if (target == out.end()) out.emplace(names[p], weight);
      else weight.astype(target->second.dtype()).copyto(target->second);
    }
  };
  average_into(execgrp_->param_names(), execgrp_->param_arrays(), arg_params);
  average_into(aux_names_, execgrp_->aux_arrays(), aux_params);
}

void DataParallelExecutorManager::load_data_batch(const io::DataBatch& data_batch) {
  if (sym_gen_) {
    XP_CHECK(data_batch.bucket_key.has_value(), ValueError,
             "load_data_batch: with sym_gen every batch needs a bucket_key");
    const std::int64_t key = *data_batch.bucket_key;
    if (key == default_bucket_key_) {
      curr_execgrp_ = execgrp_.get();
    } else {
      auto& group = execgrp_bucket_[key];
      if (!group) {
        XP_CHECK(!data_batch.provide_data.empty(), ValueError, "load_data_batch: bucket ", key,
                 " is new and the batch does not describe its shapes (provide_data)");
        group = std::make_unique<DataParallelExecutorGroup>(sym_gen_(key), arg_names_, param_names_, ctx_, slices_,
                                                            data_batch.provide_data, data_batch.provide_label,
                                                            execgrp_.get());
      }
      curr_execgrp_ = group.get();
    }
  }
  curr_execgrp_->load_data_batch(data_batch);
}

void DataParallelExecutorManager::forward(bool is_train) { curr_execgrp_->forward(is_train); }
void DataParallelExecutorManager::backward() { curr_execgrp_->backward(); }
void DataParallelExecutorManager::update_metric(metric::EvalMetric& metric, const std::vector<ndarray<>>& labels) {
  curr_execgrp_->update_metric(metric, labels);
}
void DataParallelExecutorManager::update_metric(metric::EvalMetric& metric, const ArraysByDevice& pre_sliced_labels) {
  curr_execgrp_->update_metric(metric, pre_sliced_labels);
}

}  // namespace xp
