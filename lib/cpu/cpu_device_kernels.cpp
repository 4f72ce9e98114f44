#include "cpu/cpu_device_kernels.hpp"
#include "cpu/cpu_builtins.hpp"
#include "cpu/cpu_gemm.hpp"
#include "cpu/cpu_random.hpp"
#include "cpu/cpu_reductions.hpp"
#include "cpu/cpu_solver.hpp"
#include "cpu/cpu_sort.hpp"

#include <array>
#include <cstring>
#include <type_traits>

#include "core/layout.hpp"
#include "core/view_kernels.hpp"
#include "xp/kernels/cpu/elementwise.hpp"
#include "xp/kernels/cpu/narrow_floats.hpp"
#include "xp/kernels/cpu/parallel_for.hpp"

namespace xp::detail {

namespace {

struct CpuLoops {
  template <class R, class F, class... Ops>
  static void run(const ElementwisePlan& plan, const F& f, const Ops&... ops) {
    cpu_elementwise<R>(plan, f, ops...);
  }
};

// Converts n contiguous elements of float32 to or from a 2-byte float in bulk, on the CPU's threads.
template <class From, class To>
void convert_in_bulk(const void* from, void* to, std::int64_t n) {
  struct Arrays {
    const From* from;
    To* to;
  } arrays{static_cast<const From*>(from), static_cast<To*>(to)};
  parallel_for(
      n, kParallelGrain,
      [](void* context, std::int64_t begin, std::int64_t end) {
        const auto& [in, out] = *static_cast<const Arrays*>(context);
        if constexpr (std::is_same_v<From, float>) narrow_floats(in + begin, out + begin, end - begin);
        else widen_floats(in + begin, out + begin, end - begin);
      },
      &arrays);
}

// astype between float32 and the 2-byte floats, both sides contiguous, by the bulk conversions
// (vectorised; F16C where present). Returns false to leave other copies to the element loop.
bool convert_floats_in_bulk(const StridedView& src, const StridedView& dst) {
  const bool narrowing = src.type == xp::dtype::float32 && is_two_byte_float(dst.type);
  const bool widening = dst.type == xp::dtype::float32 && is_two_byte_float(src.type);
  if (!(narrowing || widening) || !is_c_contiguous(src.shape, src.strides) || !is_c_contiguous(dst.shape, dst.strides))
    return false;
  const std::int64_t n = numel(src.shape);
  const xp::dtype narrow = narrowing ? dst.type : src.type;
  if (narrow == xp::dtype::float16) {
    if (narrowing) convert_in_bulk<float, float16>(src.data, dst.data, n);
    else convert_in_bulk<float16, float>(src.data, dst.data, n);
  } else {
    if (narrowing) convert_in_bulk<float, bfloat16>(src.data, dst.data, n);
    else convert_in_bulk<bfloat16, float>(src.data, dst.data, n);
  }
  return true;
}

class CpuDeviceKernels final : public DeviceKernels {
 public:
  CpuDeviceKernels() {
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

  void copy_cast(const StridedView& src, const StridedView& dst, const Exec& exec) override {
    if (src.type == dst.type && is_c_contiguous(src.shape, src.strides) && is_c_contiguous(dst.shape, dst.strides)) {
      // An empty view may have no memory at all: memcpy must not see its null pointer.
      if (const auto bytes = static_cast<std::size_t>(numel(src.shape)) * itemsize(src.type))
        std::memcpy(dst.data, src.data, bytes);
      return;
    }
    if (convert_floats_in_bulk(src, dst)) return;
    ViewKernels<CpuLoops>::copy_cast(src, dst, exec);
  }
  void fill(const StridedView& dst, const void* value, const Exec& exec) override {
    ViewKernels<CpuLoops>::fill(dst, value, exec);
  }
  void iota(const StridedView& dst, const IotaRange& range, const Exec& exec) override {
    ViewKernels<CpuLoops>::iota(dst, range, exec);
  }
  void random(void* out, std::int64_t size, xp::dtype type, const RandomCall& call, const Exec& exec) override {
    cpu_random(out, size, type, call, exec);
  }
  void random_permutation(std::int64_t* out, std::int64_t n, const RandomCall& keys, MemoryPool& scratch,
                          const Exec& exec) override {
    cpu_random_permutation(out, n, keys, scratch, exec);
  }

  void elementwise(const ElementwiseCall& call, const ElementwisePlan& plan) override {
    kernels::with_group(call.op, [&]<kernels::OpGroup G>() { cpu_builtin_group<G>(call, plan); });
  }

  SerialLoop serial_loop(ElementwiseOp op, xp::dtype type) const noexcept override {
    return serial_loops_[static_cast<std::size_t>(op)][static_cast<std::size_t>(type)];
  }

  void reduce(const ReductionCall& call, const ReductionPlan& plan) override { cpu_reduce(call, plan); }

  void sort(const SortCall& call, const Exec& exec) override { cpu_sort(call, exec); }
  void scan(const ScanCall& call, const Exec& exec) override { cpu_scan(call, exec); }
  void gather(const GatherCall& call, const Exec& exec) override { cpu_gather(call, exec); }
  void search(const SearchCall& call, const Exec& exec) override { cpu_search(call, exec); }
  std::int64_t select(const SelectCall& call, const Exec& exec) override { return cpu_select(call, exec); }
  void bincount(const BincountCall& call, const Exec& exec) override { cpu_bincount(call, exec); }
  IndexFault gather_indexed(const IndexedCall& call, const Exec& exec) override {
    return cpu_gather_indexed(call, exec);
  }
  IndexFault scatter_indexed(const IndexedCall& call, const Exec& exec) override {
    return cpu_scatter_indexed(call, exec);
  }

  void gemm(const GemmCall& call, const Exec&) override { cpu_gemm(call); }
  void solver(const SolverCall& call, const Exec&) override { cpu_solver(call); }

 private:
  std::array<std::array<SerialLoop, kNumDtypes>, static_cast<std::size_t>(ElementwiseOp::clip) + 1> serial_loops_{};
};

}  // namespace

DeviceKernels& cpu_device_kernels() {
  static CpuDeviceKernels kernels;
  return kernels;
}

}  // namespace xp::detail
