#include "api/array/array_factory.hpp"

#include "api/array/buffer.hpp"
#include "core/stream_capture.hpp"
#include "support/ordered_exec.hpp"
#include "xp/memory_pool.hpp"

namespace xp::detail {

ArrayCore new_array(const Shape& shape, xp::dtype type, Device device) {
  return new_array(shape, type, exec_on(device));
}

ArrayCore new_array(const Shape& shape, xp::dtype type, const Exec& exec) {
  const Device device = exec.device;
  const auto bytes = static_cast<std::size_t>(checked_bytes(shape, type));
  std::shared_ptr<Buffer> buffer;
  if (CaptureRecording* const capture = capture_under_way(); capture && capture->memory && capture->records(exec)) {
    buffer = std::make_shared<Buffer>(capture->memory->pool().malloc(bytes, exec.stream), capture->memory);
    capture->made.push_back(buffer);
    capture->gate = order_for_launch;
  } else {
    // The arena of exec's stream; streams whose work is done as it is queued share the host one.
    MemoryPool& pool = get_default_memory_pool(device);
    buffer = std::make_shared<Buffer>(pool.malloc(bytes, exec.asynchronous ? exec.stream.native_handle() : nullptr));
  }
  void* data = buffer->memory.get();
  return ArrayCore(std::move(buffer), data, shape, contiguous_strides(shape), device, type);
}

MemoryPool& scratch_pool(const Exec& exec) {
  if (CaptureRecording* const capture = capture_under_way(); capture && capture->memory && capture->records(exec))
    return capture->memory->pool();
  return get_default_memory_pool(exec.device);
}

ArrayCore borrowed_host_array(const void* data, const Shape& shape, xp::dtype type) {
  return ArrayCore(nullptr, const_cast<void*>(data), shape, contiguous_strides(shape), cpu(0), type);
}

StridedView view_of(const ArrayCore& a, const Exec& exec) {
  if (ArrayInternals::buffer(a)) ArrayInternals::buffer(a)->order_access(exec);
  return {a.raw_data(), a.dtype(), a.shape(), a.strides()};
}

Exec exec_for(Device device, const Stream* stream, std::string_view op) {
  if (!stream) return exec_on(device);
  XP_CHECK(stream->device() == device, DeviceMismatchError, op, ": the stream is on ", stream->device(),
           " but the array is on ", device);
  return exec_on(*stream);
}

Exec ordered_exec(Device device, std::span<const ArrayCore* const> arrays) {
  const Exec exec = exec_on(device);
  order_access(exec, arrays);
  return exec;
}

}  // namespace xp::detail
