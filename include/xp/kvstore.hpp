#pragma once
/// \file
/// Key-value stores for gradient aggregation (MXNet 1.x's mx.kvstore), within one process and across
/// processes ("dist_sync", after xp::dist::init):
///
/// \code{.cpp}
///   auto kv = xp::kvstore::create("device");     // "local" | "device" | "nccl" | "dist_sync"
///   kv.init("fc1_weight", weight);               // a copy, never the array itself
///   kv.pushpull("fc1_weight", grads, grads);     // every device's gradient becomes the sum over devices
///   kv.pull("fc1_weight", outs);                 // the stored value copied into each
/// \endcode
///
/// push sums the values of a list (one per device) and stores the sum, replacing what was stored;
/// pull copies the stored value into every output; pushpull does both, writing the sum straight into
/// its outputs. A list of one value is copied, never aliased (MXNet issue 15152). cpu devices are summed
/// in one parallel pass over their memory; GPUs by NCCL ("device", "nccl": an all-reduce over one
/// communicator per device set) or through host memory ("local", as MXNet's CommCPU); a list that
/// mixes cpu devices and GPUs is summed on the first value's device. Keys are strings or integers
/// (an integer is its decimal string).
///
/// "dist_sync" sums within the process as "device" does, then over the processes (xp::dist::allreduce:
/// one collective per bucket of about 25 MiB when a list of keys is pushed at once), and hands the sum
/// to every local device. init takes rank 0's values, after checking that every process initialises
/// the same keys with the same dtypes and shapes (ValueError on every process, naming the first
/// difference, before any value moves).
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "xp/export.hpp"
#include "xp/ndarray.hpp"

namespace xp {

/// \cond DETAIL
namespace detail {
class ProcessGroup;
}  // namespace detail
/// \endcond

namespace kvstore {

/// One key: a string or an integer (its decimal string). Not constructible from a braced pair, so that
/// {"a", "b"} always means a list of keys (std::string would take it as a range of characters).
struct XP_API Key {
  Key(std::string key) : name(std::move(key)) {}  ///< a string key
  Key(const char* key) : name(key) {}  ///< a string key
  Key(int key) : name(std::to_string(key)) {}  ///< an integer key, as its decimal string
  std::string name;  ///< the key as a string
};

/// MXNet's KVStore: values per key, summed over devices (and processes for dist_sync) on push.
class XP_API KVStore {
 public:
  const std::string& type() const noexcept { return type_; }  ///< "local", "device", "nccl" or "dist_sync"
  /// This process among the workers ("dist_sync"; 0 of 1 otherwise).
  int rank() const;
  int num_workers() const;  ///< the processes ("dist_sync"; 1 otherwise)

  /// ValueError when the key is already initialised.
  void init(const Key& key, const ndarray<>& value);
  /// Several keys at once (one agreement check and one broadcast for "dist_sync").
  void init(const std::vector<std::string>& keys, const std::vector<ndarray<>>& values);
  /// ValueError for a key never initialised, an empty list, or values whose shape or dtype differ
  /// from the stored one.
  void push(const Key& key, const std::vector<ndarray<>>& values);
  /// Copies the stored value of `key` into every array of `outs` (any devices).
  void pull(const Key& key, const std::vector<ndarray<>>& outs) const;
  /// outs empty: the sum goes back into `values`.
  void pushpull(const Key& key, const std::vector<ndarray<>>& values, const std::vector<ndarray<>>& outs = {});
  /// Several keys at once: values[k] (and outs[k]) are key k's list; "dist_sync" fuses their sums across
  /// processes into buckets.
  void pushpull(const std::vector<std::string>& keys, const std::vector<std::vector<ndarray<>>>& values,
                const std::vector<std::vector<ndarray<>>>& outs = {});
  /// init, then pull into outs.
  void broadcast(const Key& key, const ndarray<>& value, const std::vector<ndarray<>>& outs);

  /// Use create(): it checks the type.
  explicit KVStore(std::string type);

 private:
  const ndarray<>& stored(const std::string& key, const std::vector<ndarray<>>& values, const char* op) const;
  /// Sets outs[i] to the sum of values, as this store's type sums.
  void sum(const std::vector<ndarray<>>& values, const std::vector<ndarray<>>& outs) const;

  /// ValueError on every process unless all describe the same (key, dtype, shape) list.
  void check_agreement(const char* op, const std::vector<std::string>& keys,
                       const std::vector<ndarray<>>& values) const;

  std::string type_;
  detail::ProcessGroup* group_ = nullptr;  ///< "dist_sync": the other processes
  std::map<std::string, ndarray<>> store_;
};

/// "local", "device", "nccl" or "dist_sync"; ValueError for another name, and for "dist_sync" before
/// xp::dist::init.
XP_API KVStore create(const std::string& name = "local");

}  // namespace kvstore
}  // namespace xp
