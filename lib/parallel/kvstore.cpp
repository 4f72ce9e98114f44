#include "xp/kvstore.hpp"

#include <algorithm>

#include <set>
#include <sstream>

#include "support/collectives.hpp"
#include "support/process_group.hpp"
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
  XP_CHECK(name == "local" || name == "device" || name == "nccl" || name == "dist_sync", ValueError,
           "kvstore: unknown type '", name, "' (known: 'local', 'device', 'nccl', 'dist_sync')");
  XP_CHECK(name != "dist_sync" || detail::process_group() != nullptr, ValueError,
           "kvstore: 'dist_sync' needs xp::dist::init first (from the xp::dist library)");
  return KVStore(name);
}

KVStore::KVStore(std::string type)
    : type_(std::move(type)), group_(type_ == "dist_sync" ? detail::process_group() : nullptr) {}

int KVStore::rank() const { return group_ ? group_->rank() : 0; }
int KVStore::num_workers() const { return group_ ? group_->size() : 1; }

void KVStore::init(const Key& key, const ndarray<>& value) {
  init(std::vector<std::string>{key.name}, std::vector<ndarray<>>{value});
}

void KVStore::init(const std::vector<std::string>& keys, const std::vector<ndarray<>>& values) {
  XP_CHECK(keys.size() == values.size(), ValueError, "kvstore.init: ", keys.size(), " keys for ", values.size(),
           " values");
  std::set<std::string> seen;
  for (const std::string& key : keys)
    XP_CHECK(!store_.contains(key) && seen.insert(key).second, ValueError, "kvstore.init: key '", key,
             "' is already initialised");
  if (group_) check_agreement("init", keys, values);
  std::vector<ndarray<>> copies;
  for (const ndarray<>& value : values) copies.push_back(value.copyto(type_ == "local" ? cpu(0) : value.device()));
  if (group_) group_->broadcast(copies, 0);
  for (std::size_t i = 0; i < keys.size(); ++i) store_.emplace(keys[i], copies[i]);
}

void KVStore::check_agreement(const char* op, const std::vector<std::string>& keys,
                              const std::vector<ndarray<>>& values) const {
  const auto describe = [&](std::size_t i) {
    std::ostringstream line;
    line << "'" << keys[i] << "' " << values[i].dtype() << " " << values[i].shape();
    return line.str();
  };
  std::string mine;
  for (std::size_t i = 0; i < keys.size(); ++i) mine += describe(i) + "\n";
  const std::vector<std::string> all = group_->allgather(mine);
  const auto lines = [](const std::string& text) {
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) out.push_back(line);
    return out;
  };
  const std::vector<std::string> first = lines(all[0]);
  for (std::size_t rank = 1; rank < all.size(); ++rank) {
    if (all[rank] == all[0]) continue;
    const std::vector<std::string> other = lines(all[rank]);
    std::size_t at = 0;
    while (at < first.size() && at < other.size() && first[at] == other[at]) ++at;
    const auto entry = [&](const std::vector<std::string>& list) {
      return at < list.size() ? list[at] : std::string("nothing");
    };
    throw ValueError("kvstore.", op, ": the processes disagree on the keys: rank ", rank, " has ", entry(other),
                     " at position ", at, " where rank 0 has ", entry(first), " (", other.size(), " and ", first.size(),
                     " keys)");
  }
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

void KVStore::push(const Key& key, const std::vector<ndarray<>>& values) {
  const ndarray<>& value = stored(key.name, values, "push");
  // The sum lands in scratch arrays beside the values (the values stay as they were), then one of them
  // in the store.
  std::vector<ndarray<>> sums;
  for (const ndarray<>& v : values) sums.push_back(xp::empty(v.shape(), v.dtype(), v.device()));
  sum(values, sums);
  if (group_) group_->allreduce({sums.front()});
  sums.front().copyto(value);
}

void KVStore::pull(const Key& key, const std::vector<ndarray<>>& outs) const {
  const ndarray<>& value = stored(key.name, outs, "pull");
  for (const ndarray<>& out : outs) value.copyto(out);
}

void KVStore::pushpull(const Key& key, const std::vector<ndarray<>>& values, const std::vector<ndarray<>>& outs) {
  using Lists = std::vector<std::vector<ndarray<>>>;
  pushpull(std::vector<std::string>{key.name}, Lists{values}, outs.empty() ? Lists{} : Lists{outs});
}

void KVStore::pushpull(const std::vector<std::string>& keys, const std::vector<std::vector<ndarray<>>>& values,
                       const std::vector<std::vector<ndarray<>>>& outs) {
  const std::vector<std::vector<ndarray<>>>& targets = outs.empty() ? values : outs;
  XP_CHECK(keys.size() == values.size() && keys.size() == targets.size(), ValueError, "kvstore.pushpull: ", keys.size(),
           " keys for ", values.size(), " value lists and ", targets.size(), " output lists");
  std::vector<ndarray<>> stored_values, sums;
  for (std::size_t k = 0; k < keys.size(); ++k) {
    stored_values.push_back(stored(keys[k], values[k], "pushpull"));
    stored(keys[k], targets[k], "pushpull");
    XP_CHECK(targets[k].size() == values[k].size(), ValueError, "kvstore.pushpull: ", values[k].size(), " values for ",
             targets[k].size(), " outputs of key '", keys[k], "'");
  }
  for (std::size_t k = 0; k < keys.size(); ++k) {
    sum(values[k], targets[k]);
    sums.push_back(targets[k].front());
  }
  if (group_) {
    group_->allreduce(sums);
    for (std::size_t k = 0; k < keys.size(); ++k)
      for (std::size_t d = 1; d < targets[k].size(); ++d) sums[k].copyto(targets[k][d]);
  }
  for (std::size_t k = 0; k < keys.size(); ++k) sums[k].copyto(stored_values[k]);
}

void KVStore::broadcast(const Key& key, const ndarray<>& value, const std::vector<ndarray<>>& outs) {
  init(key, value);
  pull(key, outs);
}

}  // namespace xp::kvstore
