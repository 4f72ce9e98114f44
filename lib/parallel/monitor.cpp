#include "xp/monitor.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <mutex>
#include <regex>
#include <sstream>

#include "xp/math.hpp"
#include "xp/reductions.hpp"
#include "xp/symbol.hpp"

namespace xp {

struct Monitor::State {
  std::int64_t interval;
  StatFunction stat;
  std::regex pattern;
  bool sort;
  std::atomic<bool> activated{false};
  std::int64_t step = 0;
  std::mutex mutex;  // the queue, filled by executors on several threads
  std::vector<std::tuple<std::int64_t, std::string, ndarray<>>> queue;
  std::vector<Executor*> executors;

  bool matches(const std::string& name) const {
    return std::regex_search(name, pattern, std::regex_constants::match_continuous);  // Python's re.match
  }
  void record(const std::string& name, const ndarray<>& value) {
    ndarray<> statistic = stat(value);
    const std::lock_guard lock(mutex);
    queue.emplace_back(step, name, std::move(statistic));
  }
};

namespace {

// MXNet's text of a statistic: a scalar's value, else the elements, then a tab.
std::string text_of(const ndarray<>& value) {
  const std::vector<double> v = value.astype(xp::dtype::float64).as<double>().to_vector();
  std::ostringstream out;
  out.precision(8);
  if (v.size() == 1) {
    out << v[0];
  } else {
    out << '[';
    for (std::size_t i = 0; i < v.size(); ++i) out << (i ? " " : "") << v[i];
    out << ']';
  }
  out << '\t';
  return out.str();
}

}  // namespace

Monitor::Monitor(std::int64_t interval, StatFunction stat_func, const std::string& pattern, bool sort)
    : state_(std::make_shared<State>()) {
  XP_CHECK(interval > 0, ValueError, "Monitor: interval must be positive, not ", interval);
  state_->interval = interval;
  state_->stat = stat_func ? std::move(stat_func) : [](const ndarray<>& x) {
    return ndarray<>(xp::sqrt(xp::sum(x * x)) / std::sqrt(static_cast<double>(std::max<std::size_t>(x.size(), 1))));
  };
  state_->pattern = std::regex(pattern);
  state_->sort = sort;
}

void Monitor::install(Executor& exe) {
  exe.set_monitor_callback([state = state_](const std::string& name, const ndarray<>& value) {
    if (state->activated.load(std::memory_order_acquire) && state->matches(name)) state->record(name, value);
  });
  state_->executors.push_back(&exe);
}

void Monitor::tic() {
  if (state_->step % state_->interval == 0) {
    const std::lock_guard lock(state_->mutex);
    state_->queue.clear();
    state_->activated.store(true, std::memory_order_release);
  }
  ++state_->step;
}

std::vector<Monitor::Entry> Monitor::toc() {
  if (!state_->activated.load()) return {};
  for (Executor* exe : state_->executors) {
    const std::vector<std::string> args = exe->symbol().list_arguments();
    for (std::size_t i = 0; i < args.size(); ++i)
      if (state_->matches(args[i])) state_->record(args[i], exe->arg_arrays()[i]);
    const std::vector<std::string> aux = exe->symbol().list_auxiliary_states();
    for (std::size_t i = 0; i < aux.size(); ++i)
      if (state_->matches(aux[i])) state_->record(aux[i], exe->aux_arrays()[i]);
  }
  state_->activated.store(false);
  auto queue = std::move(state_->queue);
  state_->queue.clear();
  if (state_->sort)
    std::stable_sort(queue.begin(), queue.end(),
                     [](const auto& a, const auto& b) { return std::get<1>(a) < std::get<1>(b); });
  std::vector<Entry> out;
  for (const auto& [step, name, value] : queue) out.emplace_back(step, name, text_of(value));
  return out;
}

void Monitor::toc_print() {
  for (const auto& [step, name, value] : toc())
    std::fprintf(stderr, "Batch: %7lld %30s %s\n", static_cast<long long>(step), name.c_str(), value.c_str());
}

}  // namespace xp
