#include "cpu/cpu_device_kernels.hpp"
#include "cpu/cpu_builtins.hpp"
#include "cpu/cpu_gemm.hpp"
#include "cpu/cpu_reductions.hpp"

#include <array>
#include <cstring>

#include "core/layout.hpp"
#include "core/view_kernels.hpp"
#include "xp/kernels/cpu/elementwise.hpp"

namespace xp::detail {

namespace {

struct CpuLoops {
  template <class R, class F, class... Ops>
  static void run(const ElementwisePlan& plan, const F& f, const Ops&... ops) {
    cpu_elementwise<R>(plan, f, ops...);
  }
};

class CpuDeviceKernels final : public DeviceKernels {
 public:
  CpuDeviceKernels() {
    for (int op = 0; op <= static_cast<int>(ElementwiseOp::clip); ++op) {
      for (int type = 0; type < kNumDtypes; ++type) {
        const ElementwiseCall call{static_cast<ElementwiseOp>(op), static_cast<xp::dtype>(type)};
        if (!keeps_dtype(call.op, call.compute) || is_two_byte_float(call.compute)) continue;
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
    ViewKernels<CpuLoops>::copy_cast(src, dst, exec);
  }
  void fill(const StridedView& dst, const void* value, const Exec& exec) override {
    ViewKernels<CpuLoops>::fill(dst, value, exec);
  }
  void iota(const StridedView& dst, const IotaRange& range, const Exec& exec) override {
    ViewKernels<CpuLoops>::iota(dst, range, exec);
  }
  void random(const StridedView& dst, const RandomCall& call, const Exec& exec) override {
    ViewKernels<CpuLoops>::random(dst, call, exec);
  }

  void elementwise(const ElementwiseCall& call, const ElementwisePlan& plan) override {
    kernels::with_group(call.op, [&]<kernels::OpGroup G>() { cpu_builtin_group<G>(call, plan); });
  }

  SerialLoop serial_loop(ElementwiseOp op, xp::dtype type) const noexcept override {
    return serial_loops_[static_cast<std::size_t>(op)][static_cast<std::size_t>(type)];
  }

  void reduce(const ReductionCall& call, const ReductionPlan& plan) override { cpu_reduce(call, plan); }

  void gemm(const GemmCall& call, const Exec&) override { cpu_gemm(call); }

 private:
  std::array<std::array<SerialLoop, kNumDtypes>, static_cast<std::size_t>(ElementwiseOp::clip) + 1> serial_loops_{};
};

}  // namespace

DeviceKernels& cpu_device_kernels() {
  static CpuDeviceKernels kernels;
  return kernels;
}

}  // namespace xp::detail
