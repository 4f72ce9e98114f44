#pragma once
// What computes on a device type's devices once an operation is planned: the loop drivers of the
// built-in operations, the view loops (copies with a cast, fills, arange), random numbers and matrix
// products, sorts and scans. Everything around an operation (device checks, layout planning, output allocation, stream
// ordering) is decided before they are called. CPU: lib/cpu/cpu_device_kernels.cpp; CUDA:
// lib/cuda/cuda_device_kernels.cpp. Found through core/device_registry.hpp.
#include <cstdint>

#include "core/gemm_call.hpp"
#include "core/indexed_call.hpp"
#include "core/segment_calls.hpp"
#include "core/solver_call.hpp"
#include "core/view_plan.hpp"
#include "xp/detail/elementwise_ops.hpp"
#include "xp/detail/elementwise_plan.hpp"
#include "xp/detail/exec.hpp"
#include "xp/detail/iota_range.hpp"
#include "xp/detail/random_call.hpp"
#include "xp/detail/reduction_ops.hpp"
#include "xp/detail/reduction_plan.hpp"
#include "xp/dtype.hpp"

namespace xp::detail {

// Every entry queues its work on exec.stream (exec.device is one of this device type's devices) and
// may return before the work is done on an asynchronous runtime; entries may be called from several
// threads at once.
class DeviceKernels {
 public:
  virtual ~DeviceKernels() = default;

  // Loop drivers over views of the same shape on exec's device (core/view_kernels.hpp).
  virtual void copy_cast(const StridedView& src, const StridedView& dst, const Exec& exec) = 0;
  // Every element of dst set to *value, one element of dst's dtype.
  virtual void fill(const StridedView& dst, const void* value, const Exec& exec) = 0;
  virtual void iota(const StridedView& dst, const IotaRange& range, const Exec& exec) = 0;
  // `size` samples into the contiguous `out` of `type` (kernels/xp/kernels/random_dispatch.hpp says which
  // dtypes each distribution makes).
  virtual void random(void* out, std::int64_t size, xp::dtype type, const RandomCall& call, const Exec& exec) = 0;
  // A random permutation of [0, n) into the contiguous `out`: the stable order of the n keys `keys`
  // draws (integers over uint64's full range), so that every device gives the same one.
  virtual void random_permutation(std::int64_t* out, std::int64_t n, const RandomCall& keys, MemoryPool& scratch,
                                  const Exec& exec) = 0;
  // A built-in elementwise operation over a plan (on plan.exec).
  virtual void elementwise(const ElementwiseCall& call, const ElementwisePlan& plan) = 0;
  // The loop of `op` over C-contiguous arrays of `type` computed in `type`, run in the calling thread:
  // host drivers give one so that small calls need no plan. Null where there is none.
  using SerialLoop = void (*)(void* out, const void* const* inputs, std::int64_t size);
  virtual SerialLoop serial_loop(ElementwiseOp op, xp::dtype type) const noexcept = 0;
  // A built-in reduction over a plan (on plan.exec).
  virtual void reduce(const ReductionCall& call, const ReductionPlan& plan) = 0;
  // C = A . B for every product of the batch: BLAS for the floating and complex dtypes, the driver's
  // own loop (exact, wrapping around as integer arithmetic does) for the others.
  virtual void gemm(const GemmCall& call, const Exec& exec) = 0;
  // A batch of dense factorizations (core/solver_call.hpp): LAPACK on CPUs, cuSOLVER on GPUs. Writes
  // each matrix's status into call.info without reading it back.
  virtual void solver(const SolverCall& call, const Exec& exec) = 0;
  // Operations along an axis (core/segment_calls.hpp): CUB's device-wide algorithms on GPUs,
  // parallel twins on CPUs.
  virtual void sort(const SortCall& call, const Exec& exec) = 0;
  virtual void scan(const ScanCall& call, const Exec& exec) = 0;
  virtual void gather(const GatherCall& call, const Exec& exec) = 0;
  virtual void search(const SearchCall& call, const Exec& exec) = 0;
  // Returns how many flags were true: the one result read back, so GPUs synchronise exec.stream.
  virtual std::int64_t select(const SelectCall& call, const Exec& exec) = 0;
  virtual void bincount(const BincountCall& call, const Exec& exec) = 0;
  // Through index arrays (core/indexed_call.hpp). With mode raise they return the first position
  // outside its axis they met, having written nothing (scatter) or a partial output (gather): GPUs
  // then read one flag back, the only synchronisation; wrap and clip never synchronise.
  virtual IndexFault gather_indexed(const IndexedCall& call, const Exec& exec) = 0;
  virtual IndexFault scatter_indexed(const IndexedCall& call, const Exec& exec) = 0;
  // Whether gemm takes `type` itself. Host BLAS has no 2-byte products: callers multiply those in
  // float32 (the product of two 2-byte values is exact in float32; the sum accumulates in float32).
  virtual bool multiplies(xp::dtype type) const noexcept { return !is_two_byte_float(type); }
};

}  // namespace xp::detail
