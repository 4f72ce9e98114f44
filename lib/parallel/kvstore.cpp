#include "xp/kvstore.hpp"

#include <algorithm>

#include "xp/creation.hpp"
#include "xp/math.hpp"

namespace xp::kvstore {

namespace {

std::vector<const detail::ArrayCore*> cores(const std::vector<ndarray<>>& arrays) {
  std::vector<const detail::ArrayCore*> out;
  for (const ndarray<>& a : arrays) out.push_back(&a);
  return out;
}

bool any_gpu(const std::vector<ndarray<>>& arrays) {
  return std::any_of(arrays.begin(), arrays.end(), [](const ndarray<>& a) { return a.device().is_gpu(); });
}

}  // namespace

KVStore create(const std::string& name) {
  XP_CHECK(name == "local" || name == "device" || name == "nccl", ValueError, "kvstore: unknown type '", name,
           "' (this build has 'local', 'device' and 'nccl')");
  return KVStore(name);
}

void KVStore::init(const std::string& key, const ndarray<>& value) {
  XP_CHECK(!store_.contains(key), ValueError, "kvstore.init: key '", key, "' is already initialised");
  store_.emplace(key, value.copyto(type_ == "local" ? cpu(0) : value.device()));
}

const ndarray<>& KVStore::stored(const std::string& key, const std::vector<ndarray<>>& values, const char* op) const {
  const auto found = store_.find(key);
  XP_CHECK(found != store_.end(), ValueError, "kvstore.", op, ": key '", key, "' has not been initialised");
  XP_CHECK(!values.empty(), ValueError, "kvstore.", op, ": an empty list for key '", key, "'");
  for (const ndarray<>& v : values)
    XP_CHECK(v.shape() == found->second.shape() && v.dtype() == found->second.dtype(), ValueError, "kvstore.", op,
             ": key '", key, "' holds ", found->second.dtype(), " ", found->second.shape(), ", not ", v.dtype(), " ",
             v.shape());
  return found->second;
}

void KVStore::sum(const std::vector<ndarray<>>& values, const std::vector<ndarray<>>& outs) const {
  if (type_ == "local" && values.size() > 1 && any_gpu(values)) {
    // MXNet's CommCPU: the sum in host memory.
    ndarray<> total = values[0].copyto(cpu(0));
    for (std::size_t i = 1; i < values.size(); ++i) xp::add(total, values[i].as_in_context(cpu(0)), total);
    for (const ndarray<>& out : outs) total.copyto(out);
    return;
  }
  const auto in = cores(values), out = cores(outs);
  detail::allreduce_sum(in, out);
}

void KVStore::push(const std::string& key, const std::vector<ndarray<>>& values) {
  const ndarray<>& value = stored(key, values, "push");
  // The sum lands in scratch arrays beside the values (the values stay as they were), then one of them
  // in the store.
  std::vector<ndarray<>> sums;
  for (const ndarray<>& v : values) sums.push_back(xp::empty(v.shape(), v.dtype(), v.device()));
  sum(values, sums);
  sums.front().copyto(value);
}

void KVStore::pull(const std::string& key, const std::vector<ndarray<>>& outs) const {
  const ndarray<>& value = stored(key, outs, "pull");
  for (const ndarray<>& out : outs) value.copyto(out);
}

void KVStore::pushpull(const std::string& key, const std::vector<ndarray<>>& values, const std::vector<ndarray<>>& outs) {
  const std::vector<ndarray<>>& targets = outs.empty() ? values : outs;
  const ndarray<>& value = stored(key, values, "pushpull");
  stored(key, targets, "pushpull");
  XP_CHECK(targets.size() == values.size(), ValueError, "kvstore.pushpull: ", values.size(), " values for ",
           targets.size(), " outputs of key '", key, "'");
  sum(values, targets);
  targets.front().copyto(value);
}

void KVStore::broadcast(const std::string& key, const ndarray<>& value, const std::vector<ndarray<>>& outs) {
  init(key, value);
  pull(key, outs);
}

}  // namespace xp::kvstore
