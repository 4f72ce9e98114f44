#include "api/array/array_factory.hpp"

#include "api/array/buffer.hpp"
#include "support/ordered_exec.hpp"
#include "xp/memory_pool.hpp"

namespace xp::detail {

ArrayCore new_array(const Shape& shape, xp::dtype type, Device device) {
  return new_array(shape, type, exec_on(device));
}

ArrayCore new_array(const Shape& shape, xp::dtype type, const Exec& exec) {
  const Device device = exec.device;
  const std::int64_t bytes = checked_bytes(shape, type);
  MemoryPool& pool = get_default_memory_pool(device);
  // The arena of exec's stream; streams whose work is done as it is queued share the host one.
  Allocation memory =
      pool.malloc(static_cast<std::size_t>(bytes), exec.asynchronous ? exec.stream.native_handle() : nullptr);
  void* data = memory.get();
  return ArrayCore(std::make_shared<Buffer>(std::move(memory)), data, shape, contiguous_strides(shape), device, type);
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
