#pragma once
// Compiled run-time kernels: compiling a generated source for a device (through the disk cache), and
// each kernel object's in-memory cache of them, keyed by the call signature and filled exactly once
// when several threads ask at the same time.
#include <atomic>
#include <cstdint>
#include <cstring>
#include <functional>
#include <future>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>

#include "core/compiled_module.hpp"
#include "xp/device.hpp"
#include "xp/error.hpp"

namespace xp::detail {

// A cache directory that cannot be written (read-only, full) costs later processes a compile, not
// this one: said once per directory (`why` is store_cached_kernel's reason).
void warn_uncached(const std::string& why);

// Compiles (or loads from the disk cache) `source` with the kernel compiler of `device`, and loads it.
std::shared_ptr<const CompiledModule> compile_kernel(Device device, const std::string& name, const std::string& source,
                                                     KernelKind kind);

// Tests compile the GPU version of every kernel they run on a host device with NVRTC: an observer,
// when set, receives the GPU source of each signature compiled for a host device.
using CudaSourceObserver = std::function<void(const std::string& name, const std::string& source)>;
void set_cuda_source_observer(CudaSourceObserver observer);
void observe_cuda_source(const std::string& name, const std::function<std::string()>& make_source);

// A call signature in a few bytes: device, argument kinds, dtypes, ranks, contiguity, loop ranks.
class SignatureKey {
 public:
  void add(int value) {
    XP_ASSERT(length_ < sizeof(bytes_));
    bytes_[length_++] = static_cast<std::uint8_t>(value);
  }
  std::size_t hash() const noexcept;
  friend bool operator==(const SignatureKey& a, const SignatureKey& b) noexcept {
    return a.length_ == b.length_ && std::memcmp(a.bytes_, b.bytes_, a.length_) == 0;
  }

 private:
  std::uint8_t bytes_[160];
  std::size_t length_ = 0;
};

struct SignatureKeyHash {
  std::size_t operator()(const SignatureKey& key) const noexcept { return key.hash(); }
};

class KernelMemo {
 public:
  KernelMemo();
  ~KernelMemo();
  KernelMemo(const KernelMemo&) = delete;
  KernelMemo& operator=(const KernelMemo&) = delete;

  // The kernel for `key`, made by make() on the first call; other threads asking meanwhile wait for
  // it. A failed make is not remembered: the next call tries again.
  template <class Make>
  std::shared_ptr<const CompiledModule> get(const SignatureKey& key, Make&& make) {
    std::optional<std::promise<std::shared_ptr<const CompiledModule>>> promise;  // made only on a miss
    std::shared_future<std::shared_ptr<const CompiledModule>> pending;
    {
      const std::lock_guard lock(mutex_);
      const auto [slot, inserted] = entries_.try_emplace(key);
      if (slot->second.kernel) return slot->second.kernel;
      if (!inserted) {
        pending = slot->second.pending;
      } else {
        slot->second.pending = promise.emplace().get_future().share();
      }
    }
    if (pending.valid()) return pending.get();
    try {
      std::shared_ptr<const CompiledModule> kernel = make();
      promise->set_value(kernel);
      const std::lock_guard lock(mutex_);
      if (const auto slot = entries_.find(key); slot != entries_.end()) slot->second.kernel = kernel;
      return kernel;
    } catch (...) {
      promise->set_exception(std::current_exception());
      const std::lock_guard lock(mutex_);
      entries_.erase(key);
      throw;
    }
  }
  std::size_t size() const;
  void clear();
  // Changes with every clear(): a kernel that remembers what it got from the memo checks it.
  std::uint64_t generation() const noexcept { return generation_.load(std::memory_order_acquire); }

 private:
  struct Slot {
    std::shared_ptr<const CompiledModule> kernel;  // once made
    std::shared_future<std::shared_ptr<const CompiledModule>> pending;  // while it is being made
  };
  mutable std::mutex mutex_;
  std::unordered_map<SignatureKey, Slot, SignatureKeyHash> entries_;
  std::atomic<std::uint64_t> generation_{0};
};

// Every live KernelMemo, for clear_memo().
void clear_kernel_memos();

}  // namespace xp::detail
