#pragma once
// The backend interface. Everything around an operation (device checks, layout planning, output
// allocation) is decided before a backend is called; a backend supplies raw allocation, copies and
// the loop drivers, and its streams and events. CPU: lib/cpu; CUDA: lib/cuda.
#include <cstddef>
#include <cstdint>
#include <memory>

#include "xp/detail/elementwise_ops.hpp"
#include "xp/detail/elementwise_plan.hpp"
#include "xp/detail/random_call.hpp"
#include "xp/detail/reduction_ops.hpp"
#include "xp/detail/reduction_plan.hpp"
#include "xp/device.hpp"
#include "xp/dtype.hpp"
#include "xp/memory_pool.hpp"
#include "xp/shape.hpp"
#include "xp/stream.hpp"

namespace xp::detail {

// Elements of one dtype at data + offsets given by shape and strides (in elements).
struct StridedView {
  void* data;
  xp::dtype type;
  Shape shape;
  Strides strides;
};

// dst[i] = start + i * step over C-order positions, in int64 or in double arithmetic.
struct IotaRange {
  bool integral;
  std::int64_t int_start, int_step;
  double float_start, float_step;
};

class Backend {
 public:
  virtual ~Backend() = default;

  virtual RawAllocator& raw_allocator(Device device) = 0;
  virtual MemoryInfo memory_info(Device device) = 0;
  virtual void synchronize(Device device) = 0;

  // Loop drivers, on one device of this backend; views of the same shape. The stream orders the
  // work (it is the null stream of the views' device when the caller has none).
  virtual void copy_cast(const StridedView& src, const StridedView& dst, const Stream& stream) = 0;
  // Every element of dst set to *value, one element of dst's dtype.
  virtual void fill(const StridedView& dst, const void* value, const Stream& stream) = 0;
  virtual void iota(const StridedView& dst, const IotaRange& range, const Stream& stream) = 0;
  // dst: float32 or float64.
  virtual void random(const StridedView& dst, const RandomCall& call, const Stream& stream) = 0;
  // A built-in elementwise operation over a plan on one of this backend's devices.
  virtual void elementwise(const ElementwiseCall& call, const ElementwisePlan& plan) = 0;
  // A built-in reduction over a plan on one of this backend's devices.
  virtual void reduce(const ReductionCall& call, const ReductionPlan& plan) = 0;

  // Contiguous bytes between devices this backend can reach (host-host on the CPU backend; any
  // pair with a GPU on the CUDA backend). Ordered on `stream`; may return before the copy is done.
  virtual void copy_bytes(void* dst, Device dst_device, const void* src, Device src_device,
                          std::size_t bytes, const Stream& stream) = 0;
  // Keeps `owner` alive until the work queued on `stream` so far is done.
  virtual void release_after(const Stream& stream, std::shared_ptr<void> owner) = 0;

  virtual void* create_stream(Device device, bool non_blocking) = 0;
  virtual void destroy_stream(Device device, void* handle) noexcept = 0;
  virtual void synchronize_stream(const Stream& stream) = 0;
  virtual bool query_stream(const Stream& stream) = 0;

  virtual std::shared_ptr<void> create_event(Device device) = 0;
  virtual void record_event(void* event, const Stream& stream) = 0;
  virtual void synchronize_event(Device device, void* event) = 0;
  virtual bool query_event(Device device, void* event) = 0;
  virtual float elapsed_ms(Device device, void* start, void* end) = 0;
};

}  // namespace xp::detail
