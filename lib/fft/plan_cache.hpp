#pragma once
// A bounded map of plans shared by both devices' caches: once kPlanCacheSize are held, making another
// drops the oldest (CuPy keeps 16 per device). Plans are held by shared pointers, so a plan dropped while
// a call still runs it lives until that call ends. Not locked: its owner locks it or keeps it per thread.
#include <deque>
#include <map>
#include <memory>

#include "xp/fft.hpp"

namespace xp::fft::detail {

template <class Key, class Plan>
class PlanCache {
 public:
  // The plan for `key`, made by make() (a Plan) when not held.
  template <class Make>
  std::shared_ptr<Plan> get(const Key& key, Make&& make) {
    if (auto found = plans_.find(key); found != plans_.end()) return found->second;
    auto plan = std::make_shared<Plan>(make());
    if (order_.size() == kPlanCacheSize) {
      plans_.erase(order_.front());
      order_.pop_front();
    }
    plans_.emplace(key, plan);
    order_.push_back(key);
    return plan;
  }

  std::size_t size() const noexcept { return plans_.size(); }

  void clear() noexcept {
    plans_.clear();
    order_.clear();
  }

 private:
  std::map<Key, std::shared_ptr<Plan>> plans_;
  std::deque<Key> order_;  // oldest first
};

}  // namespace xp::fft::detail
