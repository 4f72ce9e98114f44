// Copies within and between devices: copyto, as_in_context, astype, to_vector, to_gpu, to_cpu, copy.
#include "xp/transfer.hpp"

#include <cstring>
#include <tuple>

#include "api/array_factory.hpp"
#include "api/backends.hpp"
#include "api/buffer.hpp"
#include "api/overlap.hpp"
#include "core/layout.hpp"

namespace xp::detail {

namespace {

// The stream of a copy from one device to another: the caller's, which must belong to one of the
// two devices (to a GPU one when a GPU is involved: only its stream can carry the copy), else the
// null stream of the GPU involved (of the source when both are GPUs).
Stream copy_stream(Device from, Device to, const Stream* stream, std::string_view op) {
  const bool gpu_involved = from.is_gpu() || to.is_gpu();
  if (!stream) return Stream::null(from.is_gpu() || !to.is_gpu() ? from : to);
  const Device on = stream->device();
  XP_CHECK((on == from || on == to) && (on.is_gpu() || !gpu_involved), DeviceMismatchError, op,
           ": the stream is on ", on, " but the copy goes from ", from, " to ", to,
           gpu_involved ? " (a copy with a GPU runs on a stream of that GPU)" : "");
  return *stream;
}

// Work queued on `first` must be done before `next` may use its result.
void order(const Stream& first, const Stream& next) {
  if (!(first == next)) first.synchronize();
}

template <class... Owners>
std::shared_ptr<void> keep_alive(Owners... owners) {
  return std::make_shared<std::tuple<Owners...>>(std::move(owners)...);
}

// `a` itself when C-contiguous, else a contiguous copy on its own device, made on `stream` when
// that stream is the device's.
ArrayCore contiguous(const ArrayCore& a, const Stream& stream) {
  if (a.is_contiguous()) return a;
  const Stream on = stream.device() == a.device() ? stream : Stream::null(a.device());
  ArrayCore out = new_array(a.shape(), a.dtype(), a.device(), &on);
  backend_for(a.device()).copy_cast(view_of(a), view_of(out), on);
  order(on, stream);
  return out;
}

// Copies contiguous `src` into contiguous `dst` of the same size on another device.
void copy_contiguous(const ArrayCore& src, const ArrayCore& dst, const Stream& stream) {
  const std::size_t bytes = src.nbytes();
  const StridedView from = view_of(src), to = view_of(dst);
  const Device src_device = src.device(), dst_device = dst.device();
  if (src_device.is_host() && dst_device.is_host()) {
    backend_for(src_device).copy_bytes(to.data, dst_device, from.data, src_device, bytes, stream);
    return;
  }
  Backend& cuda = backend_for(stream.device());
  if (src_device.type() == DeviceType::cpu) {
    // Pageable host memory is staged through pinned memory: the copy can then be asynchronous, and
    // the caller may reuse its source as soon as this returns.
    auto staging = std::make_shared<Allocation>(get_default_pinned_memory_pool().malloc(bytes));
    std::memcpy(staging->get(), from.data, bytes);
    cuda.copy_bytes(to.data, dst_device, staging->get(), cpu_pinned(0), bytes, stream);
    cuda.release_after(stream, keep_alive(std::move(staging), dst.buffer()));
  } else if (dst_device.type() == DeviceType::cpu) {
    // Into pageable host memory: the result is read by host code right away.
    cuda.copy_bytes(to.data, dst_device, from.data, src_device, bytes, stream);
    cuda.synchronize_stream(stream);
  } else {
    cuda.copy_bytes(to.data, dst_device, from.data, src_device, bytes, stream);
    if (src_device.type() == DeviceType::cpu_pinned || dst_device.type() == DeviceType::cpu_pinned) {
      Event done;
      done.record(stream);
      const ArrayCore& pinned = src_device.type() == DeviceType::cpu_pinned ? src : dst;
      if (pinned.buffer()) pinned.buffer()->set_pending(done);
    }
    cuda.release_after(stream, keep_alive(src.buffer(), dst.buffer()));
  }
}

ArrayCore copy_to_device(const ArrayCore& a, Device device, const Stream* stream,
                         std::string_view op) {
  if (device == a.device()) {
    const Stream on = stream_on(device, stream, op);
    ArrayCore out = new_array(a.shape(), a.dtype(), device, &on);
    backend_for(device).copy_cast(view_of(a), view_of(out), on);
    return out;
  }
  const Stream on = copy_stream(a.device(), device, stream, op);
  const ArrayCore src = contiguous(a, on);
  ArrayCore out = new_array(a.shape(), a.dtype(), device, on.device() == device ? &on : nullptr);
  copy_contiguous(src, out, on);
  return out;
}

void copy_into_array(const ArrayCore& a, const ArrayCore& out, const Stream* stream,
                     std::string_view op) {
  XP_CHECK(a.shape() == out.shape(), ValueError, op, ": cannot copy an array of shape ", a.shape(),
           " into one of shape ", out.shape());
  XP_CHECK(a.dtype() == out.dtype(), TypeError, op, ": cannot copy ", a.dtype(), " into ",
           out.dtype(), " (convert with astype first)");
  XP_CHECK(!has_repeated_elements(out), ValueError, op,
           ": the output is a broadcast view, several of its positions share one element");
  if (a.size() == 0) return;
  if (a.device() == out.device()) {
    const Stream on = stream_on(out.device(), stream, op);
    const ArrayCore src = may_overlap(a, out) ? copy_to_device(a, a.device(), &on, op) : a;
    backend_for(out.device()).copy_cast(view_of(src), view_of(out), on);
    return;
  }
  if (out.is_contiguous()) {
    const Stream on = copy_stream(a.device(), out.device(), stream, op);
    copy_contiguous(contiguous(a, on), out, on);
    return;
  }
  const Stream on = copy_stream(a.device(), out.device(), stream, op);
  const ArrayCore staged = copy_to_device(a, out.device(), &on, op);
  const Stream there = on.device() == out.device() ? on : Stream::null(out.device());
  order(on, there);
  backend_for(out.device()).copy_cast(view_of(staged), view_of(out), there);
}

}  // namespace

ArrayCore copy_to(const ArrayCore& a, Device device) {
  return copy_to_device(a, device, nullptr, "copyto");
}

ArrayCore as_in_context(const ArrayCore& a, Device device) {
  return a.device() == device ? a : copy_to_device(a, device, nullptr, "as_in_context");
}

void copy_into(const ArrayCore& src, const ArrayCore& out) {
  copy_into_array(src, out, nullptr, "copyto");
}

ArrayCore astype(const ArrayCore& a, xp::dtype type) {
  const Stream on = Stream::null(a.device());
  ArrayCore out = new_array(a.shape(), type, a.device());
  backend_for(a.device()).copy_cast(view_of(a), view_of(out), on);
  return out;
}

void copy_to_host(const ArrayCore& a, void* out) {
  copy_into_array(a, borrowed_host_array(out, a.shape(), a.dtype()), nullptr, "to_vector");
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

void copy(const ArrayCore& a, const ArrayCore& out, const Stream* stream) {
  copy_into_array(a, out, stream, "copy");
}

}  // namespace xp::detail
