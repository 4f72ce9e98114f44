#pragma once
/// \file
/// Data parallelism over executors (MXNet 1.x's mx.executor_manager): one executor per device, each
/// fed its slice of every batch, all running at once.
///
/// \code{.cpp}
///   xp::DataParallelExecutorManager mgr(net, {xp::cpu(0), xp::cpu(1)}, train_iter, net.list_arguments(),
///                                       param_names, net.list_auxiliary_states(), /*work_load_list=*/{1, 2});
///   mgr.set_params(arg_params, aux_params);                       // the same values on every device
///   while (auto batch = train_iter.next()) {
///     mgr.load_data_batch(*batch); mgr.forward(true); mgr.backward();
///     for (p ...) kv.pushpull(p, mgr.grad_arrays()[p]);           // the sum over devices, in place
///     ... each device updates mgr.param_arrays()[p][d] from mgr.grad_arrays()[p][d] ...
///     mgr.update_metric(metric, batch->label);
///   }
///   mgr.copy_to(arg_params, aux_params);                          // the average over devices
/// \endcode
///
/// The batch is split by xp::split_input_slice (MXNet's rules). param_arrays / grad_arrays /
/// aux_arrays are [parameter][device], parameters in the symbol's argument order; the executors keep
/// per-device gradients (nothing sums them here: that is the kvstore's part). forward, backward and
/// load_data_batch run every device at once, each on its own worker thread (cpu devices sharing the
/// cores between them, GPUs each on a stream of its own). With sym_gen (bucketing) each bucket key gets
/// its executors, made when first seen, sharing the parameters and gradients of the default bucket.
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "xp/executor.hpp"
#include "xp/export.hpp"
#include "xp/io.hpp"
#include "xp/metric.hpp"
#include "xp/monitor.hpp"
#include "xp/slicing.hpp"
#include "xp/symbol.hpp"

namespace xp {

namespace parallel {
class DeviceWorkers;
}

using ArraysByDevice = std::vector<std::vector<ndarray<>>>;  ///< [name][device]

/// One executor per device, each bound for its slice of the batch, run together on worker threads.
class XP_API DataParallelExecutorGroup {
 public:
  /// data_shapes / label_shapes: the whole batch's (the iterator's provide_data / provide_label); device
  /// i's executor is bound for its slice. shared_group: borrow its parameters, gradients, auxiliary
  /// states and (where large enough) data arrays.
  DataParallelExecutorGroup(const sym::Symbol& symbol, const std::vector<std::string>& arg_names,
                            const std::vector<std::string>& param_names, const std::vector<Device>& ctx,
                            std::vector<BatchSlice> slices, const std::vector<io::DataDesc>& data_shapes,
                            const std::vector<io::DataDesc>& label_shapes,
                            DataParallelExecutorGroup* shared_group = nullptr);
  /// The shapes from the iterator's provide_data and provide_label.
  DataParallelExecutorGroup(const sym::Symbol& symbol, const std::vector<std::string>& arg_names,
                            const std::vector<std::string>& param_names, const std::vector<Device>& ctx,
                            std::vector<BatchSlice> slices, const io::DataIter& train_data,
                            DataParallelExecutorGroup* shared_group = nullptr);
  ~DataParallelExecutorGroup();

  /// Each slice of each data and label array copied straight to its device.
  void load_data_batch(const io::DataBatch& data_batch);
  /// Every executor's forward, all devices at once.
  void forward(bool is_train = false);
  /// Every executor's backward, all devices at once.
  void backward();
  /// One metric update per device: its slice of every label against its outputs.
  void update_metric(metric::EvalMetric& metric, const std::vector<ndarray<>>& labels);
  /// MXNet's pre_sliced=True: labels[device] are that device's labels already.
  void update_metric(metric::EvalMetric& metric, const ArraysByDevice& pre_sliced_labels);

  const std::vector<std::string>& param_names() const noexcept {
    return param_names_;
  }  ///< the trainable arguments, in argument order
  const ArraysByDevice& param_arrays() const noexcept { return param_arrays_; }  ///< [parameter][device]
  const ArraysByDevice& grad_arrays() const noexcept {
    return grad_arrays_;
  }  ///< [parameter][device], each device's own gradient
  const ArraysByDevice& aux_arrays() const noexcept { return aux_arrays_; }  ///< [state][device]
  const std::vector<Executor>& train_execs() const noexcept { return execs_; }  ///< one executor per device
  std::vector<Executor>& train_execs() noexcept { return execs_; }  ///< one executor per device
  const std::vector<BatchSlice>& slices() const noexcept { return slices_; }  ///< each device's rows of the batch

 private:
  std::shared_ptr<parallel::DeviceWorkers> workers_;
  std::vector<BatchSlice> slices_;
  std::vector<std::string> param_names_, aux_names_, data_names_, label_names_;
  std::vector<Executor> execs_;
  ArraysByDevice param_arrays_, grad_arrays_, aux_arrays_;
  std::vector<std::map<std::string, ndarray<>>> shared_data_arrays_;  ///< per device, by input name
};

/// MXNet's executor manager: the executor group of each bucket, with set_params/copy_to around them.
class XP_API DataParallelExecutorManager {
 public:
  /// The symbol of a bucket key (bucketing).
  using SymbolGenerator = std::function<sym::Symbol(std::int64_t bucket_key)>;

  /// arg_names must be symbol.list_arguments(), aux_names its auxiliary states; param_names, the
  /// trainable arguments. work_load_list: one positive weight per device (default all 1).
  DataParallelExecutorManager(const sym::Symbol& symbol, const std::vector<Device>& ctx, const io::DataIter& train_data,
                              const std::vector<std::string>& arg_names, const std::vector<std::string>& param_names,
                              const std::vector<std::string>& aux_names, std::vector<double> work_load_list = {},
                              SymbolGenerator sym_gen = {});
  ~DataParallelExecutorManager();

  /// Every executor's arguments and auxiliary states from these (converted to their dtype); a name the
  /// symbol does not have is a ValueError.
  void set_params(const ArrayDict& arg_params, const ArrayDict& aux_params);
  /// The average over devices of every parameter and auxiliary state, converted to the dtype of the
  /// array of that name in the dicts (copied into it in place; added on cpu(0) when absent).
  void copy_to(ArrayDict& arg_params, ArrayDict& aux_params) const;
  /// NotImplementedError with sym_gen (MXNet's "Monitoring is not implemented for bucketing").
  void install_monitor(Monitor& monitor);

  const std::vector<std::string>& param_names() const noexcept;  ///< the trainable arguments, in argument order
  const ArraysByDevice& param_arrays() const noexcept;  ///< of the default bucket, shared by all
  const ArraysByDevice& grad_arrays() const noexcept;  ///< [parameter][device], of the default bucket
  const ArraysByDevice& aux_arrays() const noexcept;  ///< [state][device], of the default bucket
  const std::vector<BatchSlice>& slices() const noexcept { return slices_; }  ///< each device's rows of the batch

  /// Loads the batch into the executors of its bucket (made when the key is first seen).
  void load_data_batch(const io::DataBatch& data_batch);
  /// The current bucket's forward on every device at once.
  void forward(bool is_train = false);
  /// The current bucket's backward on every device at once.
  void backward();
  /// One metric update per device (see DataParallelExecutorGroup::update_metric).
  void update_metric(metric::EvalMetric& metric, const std::vector<ndarray<>>& labels);
  /// The same with labels already split per device.
  void update_metric(metric::EvalMetric& metric, const ArraysByDevice& pre_sliced_labels);

 private:
  std::vector<Device> ctx_;
  std::vector<std::string> arg_names_, param_names_, aux_names_;
  std::vector<BatchSlice> slices_;
  SymbolGenerator sym_gen_;
  std::unique_ptr<DataParallelExecutorGroup> execgrp_;
  std::int64_t default_bucket_key_ = 0;
  std::map<std::int64_t, std::unique_ptr<DataParallelExecutorGroup>> execgrp_bucket_;
  DataParallelExecutorGroup* curr_execgrp_;
};

}  // namespace xp
