#pragma once
/// \file
/// Chainer's memoize / clear_memo: a function whose results are remembered per argument values and,
/// with for_each_device, per current device (xp::current_device()).
///
/// \code{.cpp}
///   auto squares = xp::memoize([](int n) { return expensive(n); }, /*for_each_device=*/true);
///   squares(3);  // computed;  squares(3) again: remembered
///   xp::clear_memo();  // forgets every memoized result, and every compiled run-time kernel
/// \endcode
///
/// The function must take its arguments by value or const reference, with types that have operator<
/// (numbers, strings, devices, ...); results are returned by value, so they should be cheap to copy.
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <tuple>
#include <type_traits>

#include "xp/device.hpp"
#include "xp/export.hpp"

namespace xp {

/// Forgets the results of every memoized function and every run-time kernel's compiled code (which is
/// then reloaded from the disk cache when needed).
XP_API void clear_memo();

/// \cond DETAIL
namespace detail {

class XP_API MemoTable {
 public:
  MemoTable() = default;
  virtual ~MemoTable() = default;
  MemoTable(const MemoTable&) = delete;
  MemoTable& operator=(const MemoTable&) = delete;
  virtual void clear() = 0;
};

/// Registers a table for clear_memo(); it is dropped from the registry when it expires.
XP_API void register_memo_table(std::weak_ptr<MemoTable> table);

template <class Signature>
struct function_args;
template <class C, class R, class... A>
struct function_args<R (C::*)(A...) const> {
  using result = R;
  using key = std::tuple<int, std::decay_t<A>...>;  ///< the device's position, then the arguments
};
template <class R, class... A>
struct function_args<R (*)(A...)> {
  using result = R;
  using key = std::tuple<int, std::decay_t<A>...>;  ///< the device's position, then the arguments
};
template <class F>
auto call_signature() {
  if constexpr (std::is_pointer_v<F>) return function_args<F>{};
  else return function_args<decltype(&F::operator())>{};
}

}  // namespace detail
/// \endcond

/// A function whose results are kept by argument values (and device); what memoize returns.
template <class F>
class Memoized {
  using Args = decltype(detail::call_signature<F>());
  using Result = std::decay_t<typename Args::result>;
  using Key = typename Args::key;

  struct Table final : detail::MemoTable {
    std::mutex mutex;
    std::map<Key, Result> results;
    void clear() override {
      const std::lock_guard lock(mutex);
      results.clear();
    }
  };

 public:
  /// Wraps `fn`; for_each_device: results are kept per current device too.
  Memoized(F fn, bool for_each_device)
      : fn_(std::move(fn)), for_each_device_(for_each_device), table_(std::make_shared<Table>()) {
    detail::register_memo_table(table_);
  }

  /// The kept result for these arguments, computed once (thread-safe).
  template <class... A>
  Result operator()(A&&... args) const {
    const Device device = for_each_device_ ? current_device() : cpu(0);
    Key key(static_cast<int>(device.type()) * Device::kMaxDeviceId + device.id(), args...);
    {
      const std::lock_guard lock(table_->mutex);
      const auto found = table_->results.find(key);
      if (found != table_->results.end()) return found->second;
    }
    // Computed without the lock, so that fn may call other memoized functions (or this one).
    Result result = std::invoke(fn_, std::forward<A>(args)...);
    const std::lock_guard lock(table_->mutex);
    return table_->results.try_emplace(std::move(key), std::move(result)).first->second;
  }

 private:
  F fn_;
  bool for_each_device_;
  std::shared_ptr<Table> table_;
};

/// Chainer's memoize: `fn` with its results kept; clear_memo() forgets them all.
template <class F>
Memoized<std::decay_t<F>> memoize(F&& fn, bool for_each_device = false) {
  return Memoized<std::decay_t<F>>(std::forward<F>(fn), for_each_device);
}

}  // namespace xp
