#pragma once
// Key-value stores for gradient aggregation (MXNet 1.x's mx.kvstore), within one process:
//
//   auto kv = xp::kvstore::create("device");     // "local" | "device" | "nccl"
//   kv.init("fc1_weight", weight);               // a copy, never the array itself
//   kv.pushpull("fc1_weight", grads, grads);     // every device's gradient becomes the sum over devices
//   kv.pull("fc1_weight", outs);                 // the stored value copied into each
//
// push sums the values of a list (one per device) and stores the sum, replacing what was stored;
// pull copies the stored value into every output; pushpull does both, writing the sum straight into
// its outputs. A list of one value is copied, never aliased (MXNet issue 15152). cpu devices are summed
// in one parallel pass over their memory; GPUs by NCCL ("device", "nccl": an all-reduce over one
// communicator per device set) or through host memory ("local", as MXNet's CommCPU); a list that
// mixes cpu devices and GPUs is summed on the first value's device. Keys are strings or integers
// (an integer is its decimal string).
#include <map>
#include <span>
#include <string>
#include <vector>

#include "xp/ndarray.hpp"

namespace xp {

namespace detail {
// outputs[i] = sum of inputs (same shape and dtype; one pair per device, on distinct devices; an
// output may be its input). lib/api/collectives.cpp.
void allreduce_sum(std::span<const ArrayCore* const> inputs, std::span<const ArrayCore* const> outputs);
}  // namespace detail

namespace kvstore {

class KVStore {
 public:
  const std::string& type() const noexcept { return type_; }
  int rank() const noexcept { return 0; }
  int num_workers() const noexcept { return 1; }

  // ValueError when the key is already initialised.
  void init(const std::string& key, const ndarray<>& value);
  // ValueError for a key never initialised, an empty list, or values whose shape or dtype differ
  // from the stored one.
  void push(const std::string& key, const std::vector<ndarray<>>& values);
  void pull(const std::string& key, const std::vector<ndarray<>>& outs) const;
  // outs empty: the sum goes back into `values`.
  void pushpull(const std::string& key, const std::vector<ndarray<>>& values, const std::vector<ndarray<>>& outs = {});
  // init, then pull into outs.
  void broadcast(const std::string& key, const ndarray<>& value, const std::vector<ndarray<>>& outs);

  void init(int key, const ndarray<>& value) { init(std::to_string(key), value); }
  void push(int key, const std::vector<ndarray<>>& values) { push(std::to_string(key), values); }
  void pull(int key, const std::vector<ndarray<>>& outs) const { pull(std::to_string(key), outs); }
  void pushpull(int key, const std::vector<ndarray<>>& values, const std::vector<ndarray<>>& outs = {}) {
    pushpull(std::to_string(key), values, outs);
  }
  void broadcast(int key, const ndarray<>& value, const std::vector<ndarray<>>& outs) {
    broadcast(std::to_string(key), value, outs);
  }

  explicit KVStore(std::string type) : type_(std::move(type)) {}

 private:
  const ndarray<>& stored(const std::string& key, const std::vector<ndarray<>>& values, const char* op) const;
  // Sets outs[i] to the sum of values, as this store's type sums.
  void sum(const std::vector<ndarray<>>& values, const std::vector<ndarray<>>& outs) const;

  std::string type_;
  std::map<std::string, ndarray<>> store_;
};

// "local", "device" or "nccl"; ValueError for another name.
KVStore create(const std::string& name = "local");

}  // namespace kvstore
}  // namespace xp
