#pragma once
// The backend interface. Everything around an operation (device checks, layout planning, output
// allocation, stream ordering) is decided before a backend is called; a backend supplies raw
// allocation, the loop drivers and run-time kernel modules. CPU: lib/cpu; CUDA: lib/cuda.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/compiled_module.hpp"
#include "core/gemm_call.hpp"
#include "core/view_plan.hpp"
#include "support/communicator.hpp"
#include "xp/detail/elementwise_ops.hpp"
#include "xp/detail/elementwise_plan.hpp"
#include "xp/detail/exec.hpp"
#include "xp/detail/iota_range.hpp"
#include "xp/detail/random_call.hpp"
#include "xp/detail/reduction_ops.hpp"
#include "xp/detail/reduction_plan.hpp"
#include "xp/device.hpp"
#include "xp/dtype.hpp"
#include "xp/memory_pool.hpp"
#include "xp/shape.hpp"
#include "xp/stream.hpp"

namespace xp::detail {

// One device's part of a collective: what it contributes and where its copy of the result goes (the
// same memory for an in-place collective), with the device and stream it runs on.
struct CollectiveBuffer {
  const void* input = nullptr;
  void* output = nullptr;
  Exec exec;
};

// The compute table of a device type: what runs on its devices once an operation is planned. Its
// runtime (core/runtime.hpp) supplies streams, events and byte copies. Every entry queues its work
// on exec.stream (exec.device is one of this backend's devices) and may return before the work is
// done on an asynchronous runtime; entries may be called from several threads at once.
class Backend {
 public:
  virtual ~Backend() = default;

  virtual RawAllocator& raw_allocator(Device device) = 0;
  virtual MemoryInfo memory_info(Device device) = 0;

  // Loop drivers over views of the same shape on exec's device.
  virtual void copy_cast(const StridedView& src, const StridedView& dst, const Exec& exec) = 0;
  // Every element of dst set to *value, one element of dst's dtype.
  virtual void fill(const StridedView& dst, const void* value, const Exec& exec) = 0;
  virtual void iota(const StridedView& dst, const IotaRange& range, const Exec& exec) = 0;
  // dst: float32 or float64.
  virtual void random(const StridedView& dst, const RandomCall& call, const Exec& exec) = 0;
  // A built-in elementwise operation over a plan (on plan.exec).
  virtual void elementwise(const ElementwiseCall& call, const ElementwisePlan& plan) = 0;
  // The loop of `op` over C-contiguous arrays of `type` computed in `type`, run in the calling thread:
  // host backends give one so that small calls need no plan. Null where there is none.
  using SerialLoop = void (*)(void* out, const void* const* inputs, std::int64_t size);
  virtual SerialLoop serial_loop(ElementwiseOp op, xp::dtype type) const noexcept = 0;
  // A built-in reduction over a plan (on plan.exec).
  virtual void reduce(const ReductionCall& call, const ReductionPlan& plan) = 0;
  // C = A . B for every product of the batch: BLAS for float32 and float64, the backend's own loop
  // (exact, wrapping around as integer arithmetic does) for the other dtypes.
  virtual void gemm(const GemmCall& call, const Exec& exec) = 0;
  // Every output set to the sum of every input, `count` C-contiguous elements of `type` each, one
  // buffer per device (distinct devices of this backend). CPU: one parallel pass over host memory;
  // CUDA: an NCCL all-reduce over a communicator of those devices, made once and kept.
  virtual void allreduce_sum(std::span<const CollectiveBuffer> buffers, std::int64_t count, xp::dtype type) = 0;
  // Groups across processes for this backend's devices: an id to share (empty: the backend has no such
  // groups, as the CPU's, whose memory MPI reaches itself), and a device's membership of group `id` as
  // `rank` of `ranks`.
  virtual std::vector<std::byte> new_communicator_id() = 0;
  virtual std::unique_ptr<Communicator> join_communicator(Device device, std::span<const std::byte> id, int ranks,
                                                          int rank) = 0;

  // Run-time kernels: the dialect to generate, the compiler's identity for `device` (part of the
  // disk cache's key), the compiled payload of a source (CompileError with the log), and a payload
  // loaded as a module.
  virtual KernelTarget kernel_target() const noexcept = 0;
  virtual std::string compiler_identity(Device device) = 0;
  virtual std::string compile(const std::string& name, const std::string& source, KernelKind kind, Device device) = 0;
  virtual std::unique_ptr<CompiledModule> load_module(std::string_view payload, const std::string& name,
                                                      KernelKind kind, Device device) = 0;
};

}  // namespace xp::detail
