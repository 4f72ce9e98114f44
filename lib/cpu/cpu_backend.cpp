#include "cpu/cpu_backend.hpp"
#include "cpu/cpu_builtins.hpp"
#include "cpu/cpu_gemm.hpp"
#include "cpu/cpu_reductions.hpp"
#include "cpu/host_allreduce.hpp"

#include <array>
#include <cstring>
#include <fstream>
#include <string>

#include "core/bit_dispatch.hpp"
#include "core/layout.hpp"
#include "cpu/host_allocator.hpp"
#include "cpu/host_compiler.hpp"
#include "cpu/host_kernel.hpp"
#include "xp/kernels/cpu/elementwise.hpp"
#include "xp/kernels/generators.hpp"
#include "xp/kernels/iota_dispatch.hpp"
#include "xp/kernels/monoids.hpp"
#include "xp/kernels/random_dispatch.hpp"

namespace xp::detail {

namespace {

// MemTotal and MemAvailable of /proc/meminfo, in bytes.
MemoryInfo host_memory_info() {
  MemoryInfo info;
  std::ifstream meminfo("/proc/meminfo");
  std::string key;
  std::size_t kib = 0;
  std::string unit;
  while (meminfo >> key >> kib) {
    if (key == "MemTotal:") info.total = kib * 1024;
    if (key == "MemAvailable:") info.free = kib * 1024;
    std::getline(meminfo, unit);
  }
  XP_CHECK(info.total != 0, Error, "cannot read the host memory size from /proc/meminfo");
  return info;
}

class CpuBackend final : public Backend {
 public:
  CpuBackend() {
    for (int op = 0; op <= static_cast<int>(ElementwiseOp::clip); ++op) {
      for (int type = 0; type < kNumDtypes; ++type) {
        const ElementwiseCall call{static_cast<ElementwiseOp>(op), static_cast<xp::dtype>(type)};
        if (!keeps_dtype(call.op, call.compute)) continue;
        kernels::with_group(call.op, [&]<kernels::OpGroup G>() {
          serial_loops_[static_cast<std::size_t>(op)][static_cast<std::size_t>(type)] = cpu_serial_loop_group<G>(call);
        });
      }
    }
  }

  RawAllocator& raw_allocator(Device) override { return HostAllocator::instance(); }
  MemoryInfo memory_info(Device) override { return host_memory_info(); }

  void copy_cast(const StridedView& src, const StridedView& dst, const Exec& exec) override {
    if (src.type == dst.type && is_c_contiguous(src.shape, src.strides) && is_c_contiguous(dst.shape, dst.strides)) {
      // An empty view may have no memory at all: memcpy must not see its null pointer.
      if (const auto bytes = static_cast<std::size_t>(numel(src.shape)) * itemsize(src.type))
        std::memcpy(dst.data, src.data, bytes);
      return;
    }
    const ElementwisePlan plan = plan_views(exec, dst, std::span(&src, 1), WithPosition::no);
    with_cast_types(src.type, dst.type, [&]<class S, class D>() {
      cpu_elementwise<D>(plan, kernels::Identity{}, kernels::ArrayIn<S>{static_cast<const S*>(src.data)});
    });
  }

  void fill(const StridedView& dst, const void* value, const Exec& exec) override {
    const ElementwisePlan plan = plan_views(exec, dst, {}, WithPosition::no);
    visit_bits(itemsize(dst.type), [&](auto bits) {
      using T = typename decltype(bits)::type;
      T pattern;
      std::memcpy(&pattern, value, sizeof(T));
      cpu_elementwise<T>(plan, kernels::Fill<T>{pattern});
    });
  }

  void iota(const StridedView& dst, const IotaRange& range, const Exec& exec) override {
    const ElementwisePlan plan = plan_views(exec, dst, {}, WithPosition::yes);
    kernels::with_iota(dst.type, range, [&]<class T, class Acc>(const kernels::Iota<T, Acc>& iota) {
      cpu_elementwise<T>(plan, iota, kernels::PositionIn{});
    });
  }

  void random(const StridedView& dst, const RandomCall& call, const Exec& exec) override {
    const ElementwisePlan plan = plan_views(exec, dst, {}, WithPosition::yes);
    kernels::with_random_distribution(dst.type, call, [&](auto distribution) {
      using T = typename decltype(distribution)::result_type;
      cpu_elementwise<T>(plan, distribution, kernels::PositionIn{});
    });
  }

  void elementwise(const ElementwiseCall& call, const ElementwisePlan& plan) override {
    kernels::with_group(call.op, [&]<kernels::OpGroup G>() { cpu_builtin_group<G>(call, plan); });
  }

  SerialLoop serial_loop(ElementwiseOp op, xp::dtype type) const noexcept override {
    return serial_loops_[static_cast<std::size_t>(op)][static_cast<std::size_t>(type)];
  }

  void reduce(const ReductionCall& call, const ReductionPlan& plan) override { cpu_reduce(call, plan); }

  void gemm(const GemmCall& call, const Exec&) override { cpu_gemm(call); }

  void allreduce_sum(std::span<const CollectiveBuffer> buffers, std::int64_t count, xp::dtype type) override {
    host_allreduce_sum(buffers, count, type);
  }

  std::vector<std::byte> new_communicator_id() override { return {}; }
  std::unique_ptr<Communicator> join_communicator(Device device, std::span<const std::byte>, int, int) override {
    throw NotImplementedError("communicators: ", device, " is host memory, which MPI reaches itself");
  }

  KernelTarget kernel_target() const noexcept override { return KernelTarget::cpu; }
  std::string compiler_identity(Device) override { return "host\n" + host_compiler_identity(); }
  std::string compile(const std::string& name, const std::string& source, KernelKind kind, Device) override {
    return compile_host_source(name, source, kind);
  }
  std::unique_ptr<CompiledModule> load_module(std::string_view payload, const std::string& name, KernelKind kind,
                                              Device) override {
    return load_host_kernel(payload, name, kind);
  }

 private:
  std::array<std::array<SerialLoop, kNumDtypes>, static_cast<std::size_t>(ElementwiseOp::clip) + 1> serial_loops_{};
};

}  // namespace

Backend& cpu_backend() {
  static CpuBackend backend;
  return backend;
}

}  // namespace xp::detail
