#include "api/compiled_kernels.hpp"

#include <algorithm>
#include <atomic>
#include <vector>

#include "core/compile_error.hpp"
#include "core/content_hash.hpp"
#include "core/kernel_disk_cache.hpp"

namespace xp::detail {

namespace {

struct MemoRegistry {
  std::mutex mutex;
  std::vector<KernelMemo*> memos;
};

std::atomic<std::size_t> compilations{0};

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

// The payload for `key`: from the disk cache, else built by `build` and stored there.
template <class Build>
std::string cached_payload(const std::string& key, Build&& build) {
  if (auto payload = load_cached_kernel(key)) return std::move(*payload);
  std::string payload = build();
  store_cached_kernel(key, payload);
  return payload;
}

}  // namespace

std::shared_ptr<const CompiledKernel> compile_kernel(Device device, const std::string& name,
                                                     const std::string& source, bool reduction) {
  dump_source_if_asked(name, source);
  auto kernel = std::make_shared<CompiledKernel>();
  if (device.is_host()) {
    const std::string key = "host\n" + host_compiler_identity() + "\n" + source;
    const std::string so = cached_payload(key, [&] {
      ++compilations;
      return compile_host_source(name, source);
    });
    kernel->host = std::make_unique<HostModule>(so);
    kernel->entry = kernel->host->symbol(name);
    if (reduction) {
      kernel->finish = kernel->host->symbol(name + "_finish");
      kernel->partial_size = *static_cast<const unsigned long long*>(kernel->host->symbol(name + "_partial_size"));
    }
  } else {
    const std::string architecture = cuda_architecture(device);
    const std::string key = "cuda " + architecture + "\n" + nvrtc_identity() + "\n" + source;
    const std::string cubin = cached_payload(key, [&] { return compile_cubin(name, source, architecture); });
    kernel->cuda = std::make_unique<CudaModule>(cubin, name);
  }
  return kernel;
}

std::size_t host_compilations() noexcept { return compilations.load(); }

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
}

void clear_kernel_memos() {
  const std::lock_guard lock(registry().mutex);
  for (KernelMemo* memo : registry().memos) memo->clear();
}

}  // namespace xp::detail
