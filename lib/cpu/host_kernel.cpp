#include "cpu/host_kernel.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "cpu/host_compiler.hpp"
#include "xp/kernels/cpu/parallel_for.hpp"

namespace xp::detail {

namespace {

// The entry points of kernel_source.hpp's host dialect.
using ElementwiseEntry = void (*)(void* const*, std::int64_t, std::int64_t);
using ReduceEntry = void (*)(void* const*, std::int64_t, std::int64_t, std::int64_t, std::int64_t, void*);
using FinishEntry = void (*)(void* const*, std::int64_t, const void*, int);

class HostElementwise final : public CompiledModule {
 public:
  HostElementwise(std::string_view shared_object, const std::string& name)
      : module_(shared_object), entry_(reinterpret_cast<ElementwiseEntry>(module_.symbol(name))) {}

  void launch(const ModuleLaunch& launch, const Exec&) const override {
    Chunk chunk{entry_, launch.args};
    parallel_for(launch.work, kParallelGrain, &run_chunk, &chunk);
  }

 private:
  struct Chunk {
    ElementwiseEntry entry;
    void* const* args;
  };
  static void run_chunk(void* context, std::int64_t begin, std::int64_t end) {
    const auto& chunk = *static_cast<const Chunk*>(context);
    chunk.entry(chunk.args, begin, end);
  }

  HostModule module_;
  ElementwiseEntry entry_;
};

class HostReduction final : public CompiledModule {
 public:
  HostReduction(std::string_view shared_object, const std::string& name)
      : module_(shared_object),
        entry_(reinterpret_cast<ReduceEntry>(module_.symbol(name))),
        finish_(reinterpret_cast<FinishEntry>(module_.symbol(name + "_finish"))),
        partial_size_(*static_cast<const unsigned long long*>(module_.symbol(name + "_partial_size"))) {}

  void launch(const ModuleLaunch& launch, const Exec&) const override {
    Parts parts{entry_, launch.args, launch.reduced};
    const std::int64_t outputs = launch.work, reduced = launch.reduced;
    if (outputs > 1 || reduced < 2 * kParallelGrain) {
      // Whole outputs per thread, enough of them that each thread has a grain of elements.
      const std::int64_t grain = std::max<std::int64_t>(1, kParallelGrain / std::max<std::int64_t>(reduced, 1));
      parallel_for(outputs, grain, &reduce_outputs, &parts);
      return;
    }
    // One output: one part per thread, then the parts combined in order.
    parts.count = std::min<std::int64_t>(cpu_threads(), reduced / kParallelGrain);
    parts.partial_size = static_cast<std::size_t>(partial_size_);
    std::vector<std::max_align_t> storage((parts.count * parts.partial_size + sizeof(std::max_align_t) - 1) /
                                          sizeof(std::max_align_t));
    parts.partials = reinterpret_cast<char*>(storage.data());
    parallel_for(parts.count, 1, &reduce_part, &parts);
    finish_(launch.args, 0, parts.partials, static_cast<int>(parts.count));
  }

 private:
  struct Parts {
    ReduceEntry entry;
    void* const* args;
    std::int64_t reduced;
    std::int64_t count = 1;
    char* partials = nullptr;
    std::size_t partial_size = 0;
  };
  static void reduce_outputs(void* context, std::int64_t begin, std::int64_t end) {
    const auto& p = *static_cast<const Parts*>(context);
    p.entry(p.args, begin, end, 0, 0, nullptr);
  }
  static void reduce_part(void* context, std::int64_t begin, std::int64_t end) {
    const auto& p = *static_cast<const Parts*>(context);
    for (std::int64_t part = begin; part < end; ++part)
      p.entry(p.args, 0, 1, p.reduced * part / p.count, p.reduced * (part + 1) / p.count,
              p.partials + part * static_cast<std::int64_t>(p.partial_size));
  }

  HostModule module_;
  ReduceEntry entry_;
  FinishEntry finish_;
  unsigned long long partial_size_;
};

}  // namespace

std::unique_ptr<CompiledModule> load_host_kernel(std::string_view shared_object, const std::string& name,
                                                 KernelKind kind) {
  if (kind == KernelKind::reduction) return std::make_unique<HostReduction>(shared_object, name);
  return std::make_unique<HostElementwise>(shared_object, name);
}

}  // namespace xp::detail
