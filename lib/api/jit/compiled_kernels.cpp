#include "api/jit/compiled_kernels.hpp"

#include <algorithm>
#include <filesystem>
#include <mutex>
#include <set>
#include <vector>

#include "api/array/device_services.hpp"
#include "api/jit/compile_notice.hpp"
#include "core/compile_error.hpp"
#include "core/content_hash.hpp"
#include "core/kernel_disk_cache.hpp"
#include "xp/warnings.hpp"

namespace xp::detail {

namespace {

struct MemoRegistry {
  std::mutex mutex;
  std::vector<KernelMemo*> memos;
};

struct Observer {
  std::mutex mutex;
  CudaSourceObserver observer;
};

Observer& observer() {
  static auto* o = new Observer;
  return *o;
}

MemoRegistry& registry() {
  static auto* r = new MemoRegistry;  // outlives every static kernel
  return *r;
}

}  // namespace

void warn_uncached(const std::string& why) {
  static std::mutex mutex;
  static std::set<std::filesystem::path> warned;
  {
    const std::lock_guard lock(mutex);
    if (!warned.insert(kernel_cache_dir()).second) return;
  }
  utils::warn("kernel cache: " + why + "; run-time kernels are compiled again in every process");
}

std::shared_ptr<const CompiledModule> compile_kernel(Device device, const std::string& name, const std::string& source,
                                                     KernelKind kind) {
  dump_source_if_asked(name, source);
  KernelCompiler& compiler = compiler_for(device);
  const std::string key = compiler.compiler_identity(device) + "\n" + source;
  std::string payload;
  if (auto cached = load_cached_kernel(key)) {
    payload = std::move(*cached);
  } else {
    CompileNotice notice("run-time kernel '" + name + "' for " + device.str());
    payload = compiler.compile(name, source, kind, device);
    notice.done();
    if (const auto why = store_cached_kernel(key, payload)) warn_uncached(*why);
  }
  return compiler.load_module(payload, name, kind, device);
}

void set_cuda_source_observer(CudaSourceObserver o) {
  const std::lock_guard lock(observer().mutex);
  observer().observer = std::move(o);
}

void observe_cuda_source(const std::string& name, const std::function<std::string()>& make_source) {
  CudaSourceObserver o;
  {
    const std::lock_guard lock(observer().mutex);
    o = observer().observer;
  }
  if (o) o(name, make_source());
}

std::size_t SignatureKey::hash() const noexcept {
  std::uint64_t h = 0xcbf29ce484222325ULL;
  for (std::size_t k = 0; k < length_; ++k) h = (h ^ bytes_[k]) * 0x100000001b3ULL;
  return static_cast<std::size_t>(h);
}

KernelMemo::KernelMemo() {
  const std::lock_guard lock(registry().mutex);
  registry().memos.push_back(this);
}

KernelMemo::~KernelMemo() {
  const std::lock_guard lock(registry().mutex);
  std::erase(registry().memos, this);
}

std::size_t KernelMemo::size() const {
  const std::lock_guard lock(mutex_);
  return entries_.size();
}

void KernelMemo::clear() {
  const std::lock_guard lock(mutex_);
  entries_.clear();
  generation_.fetch_add(1, std::memory_order_acq_rel);
}

void clear_kernel_memos() {
  const std::lock_guard lock(registry().mutex);
  for (KernelMemo* memo : registry().memos) memo->clear();
}

}  // namespace xp::detail
