// Copies within and between devices: copyto, as_in_context, astype, to_vector, to_gpu, to_cpu, copy.
#include "xp/transfer.hpp"

#include <cstring>

#include "api/array/array_factory.hpp"
#include "api/array/device_services.hpp"
#include "api/array/overlap.hpp"
#include "core/device_registry.hpp"
#include "core/layout.hpp"
#include "core/scalar_cast.hpp"
#include "core/stream_capture.hpp"
#include "xp/profile.hpp"

namespace xp::detail {

ArrayCore contiguous(const ArrayCore& a, const Exec& exec) {
  if (a.is_contiguous()) return a;
  const Exec on = exec.device == a.device() ? exec : exec_on(a.device());
  ArrayCore out = new_array(a.shape(), a.dtype(), on);
  kernels_for(a.device()).copy_cast(view_of(a, on), view_of(out, on), on);
  return out;
}

namespace {

// Where a copy from one device to another runs: on the caller's stream, which must belong to one of
// the two devices (to a GPU one when a GPU is involved: only its stream can carry the copy), else on
// the current stream of the GPU involved (of the source when both are GPUs).
Exec copy_exec(Device from, Device to, const Stream* stream, std::string_view op) {
  const bool gpu_involved = from.is_gpu() || to.is_gpu();
  if (!stream) return exec_on(from.is_gpu() || !to.is_gpu() ? from : to);
  const Device on = stream->device();
  XP_CHECK((on == from || on == to) && (on.is_gpu() || !gpu_involved), DeviceMismatchError, op, ": the stream is on ",
           on, " but the copy goes from ", from, " to ", to,
           gpu_involved ? " (a copy with a GPU runs on a stream of that GPU)" : "");
  return exec_on(*stream);
}

// Copies contiguous `src` into contiguous `dst` of the same size on another device.
void copy_contiguous(const ArrayCore& src, const ArrayCore& dst, const Exec& exec, std::string_view op) {
  const std::size_t bytes = src.nbytes();
  Runtime& runtime = runtime_for(exec.device);
  void* const stream = exec.stream.native_handle();
  if (src.device().type() == DeviceType::cpu && dst.device().is_gpu()) {
    // Pageable host memory is staged through pinned memory: the copy can then be asynchronous, and
    // the caller may reuse its source as soon as this returns.
    const CaptureRecording* const capture = capture_under_way();
    XP_CHECK(!capture || !capture->records(exec), ValueError, op, ": a copy from host memory inside xp::capture ",
             "would be replayed from a staging buffer the library reuses: copy it in before the capture or ",
             "between launches");
    const StridedView from = view_of(src, exec_on(src.device()));
    const StridedView to = view_of(dst, exec);
    MemoryPool& pinned = get_default_pinned_memory_pool();
    const Allocation staging = pinned.malloc(bytes);
    std::memcpy(staging.get(), from.data, bytes);
    runtime.copy_bytes(to.data, staging.get(), bytes, exec.device, stream);
    pinned.record_stream(staging, exec.stream);  // reused once the copy has read it
  } else if (dst.device().type() == DeviceType::cpu && src.device().is_gpu()) {
    // Into pageable host memory: the result is read by host code right away.
    check_no_wait_in_capture(exec.device, op);
    const StridedView from = view_of(src, exec);
    const StridedView to = view_of(dst, exec_on(dst.device()));
    runtime.copy_bytes(to.data, from.data, bytes, exec.device, stream);
    runtime.synchronize_stream(exec.device, stream);
  } else {
    // Host to host, or with pinned memory or a GPU on both ends: the gate leaves a pinned buffer
    // in the copy's stream's hands until host code waits for it.
    const StridedView from = view_of(src, exec), to = view_of(dst, exec);
    runtime.copy_bytes(to.data, from.data, bytes, exec.device, stream);
  }
}

ArrayCore copy_to_device(const ArrayCore& a, Device device, const Stream* stream, std::string_view op) {
  const profile_range profiled(op);
  if (device == a.device()) {
    const Exec exec = exec_for(device, stream, op);
    ArrayCore out = new_array(a.shape(), a.dtype(), exec);
    kernels_for(device).copy_cast(view_of(a, exec), view_of(out, exec), exec);
    return out;
  }
  const Exec exec = copy_exec(a.device(), device, stream, op);
  const ArrayCore src = contiguous(a, exec);
  ArrayCore out = new_array(a.shape(), a.dtype(), exec.device == device ? exec : exec_on(device));
  copy_contiguous(src, out, exec, op);
  return out;
}

void copy_into_array(const ArrayCore& a, const ArrayCore& out, const Stream* stream, std::string_view op) {
  const profile_range profiled(op);
  note_write(out);
  XP_CHECK(a.shape() == out.shape(), ValueError, op, ": cannot copy an array of shape ", a.shape(),
           " into one of shape ", out.shape());
  XP_CHECK(a.dtype() == out.dtype(), TypeError, op, ": cannot copy ", a.dtype(), " into ", out.dtype(),
           " (convert with astype first)");
  XP_CHECK(!has_repeated_elements(out), ValueError, op,
           ": the output is a broadcast view, several of its positions share one element");
  if (a.size() == 0) return;
  if (a.device() == out.device()) {
    const Exec exec = exec_for(out.device(), stream, op);
    const ArrayCore src = may_overlap(a, out) ? copy_to_device(a, a.device(), &exec.stream, op) : a;
    kernels_for(out.device()).copy_cast(view_of(src, exec), view_of(out, exec), exec);
    return;
  }
  const Exec exec = copy_exec(a.device(), out.device(), stream, op);
  if (out.is_contiguous()) {
    copy_contiguous(contiguous(a, exec), out, exec, op);
    return;
  }
  const ArrayCore staged = copy_to_device(a, out.device(), &exec.stream, op);
  const Exec there = exec.device == out.device() ? exec : exec_on(out.device());
  kernels_for(out.device()).copy_cast(view_of(staged, there), view_of(out, there), there);
}

}  // namespace

ArrayCore copy_to(const ArrayCore& a, Device device) { return copy_to_device(a, device, nullptr, "copyto"); }

ArrayCore as_in_context(const ArrayCore& a, Device device) {
  return a.device() == device ? a : copy_to_device(a, device, nullptr, "as_in_context");
}

void copy_into(const ArrayCore& src, const ArrayCore& out) { copy_into_array(src, out, nullptr, "copyto"); }

ArrayCore astype(const ArrayCore& a, xp::dtype type) {
  const profile_range profiled("astype");
  const Exec exec = exec_on(a.device());
  ArrayCore out = new_array(a.shape(), type, exec);
  kernels_for(a.device()).copy_cast(view_of(a, exec), view_of(out, exec), exec);
  return out;
}

void copy_to_host(const ArrayCore& a, void* out, std::string_view op) {
  check_no_wait_in_capture(a.device(), op);
  copy_into_array(a, borrowed_host_array(out, a.shape(), a.dtype()), nullptr, op);
}

void item_as(const ArrayCore& a, xp::dtype target, void* out) {
  XP_CHECK(a.size() == 1, ValueError, "item: can only convert an array of size 1 to a scalar, this one has size ",
           a.size());
  ScalarValue element{a.dtype()};
  copy_to_host(a, &element.bits, "item");  // little-endian: the element sits at the start of the bits
  const ElementBits bits = cast_scalar(element, target);
  std::memcpy(out, &bits, itemsize(target));
}

ArrayCore to_gpu(const ArrayCore& a, std::optional<Device> device, const Stream* stream) {
  const Device current = current_device();
  const Device target = device ? *device : current.is_gpu() ? current : gpu(0);
  XP_CHECK(target.is_gpu(), ValueError, "to_gpu: ", target, " is not a GPU");
  return a.device() == target ? a : copy_to_device(a, target, stream, "to_gpu");
}

ArrayCore to_cpu(const ArrayCore& a, const Stream* stream) {
  return a.device().is_host() ? a : copy_to_device(a, cpu(0), stream, "to_cpu");
}

ArrayCore copy(const ArrayCore& a, std::optional<Device> out_device, const Stream* stream) {
  return copy_to_device(a, out_device.value_or(a.device()), stream, "copy");
}

void copy(const ArrayCore& a, const ArrayCore& out, const Stream* stream) { copy_into_array(a, out, stream, "copy"); }

}  // namespace xp::detail
