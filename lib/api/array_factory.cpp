#include "api/array_factory.hpp"

#include "api/buffer.hpp"
#include "xp/memory_pool.hpp"

namespace xp::detail {

ArrayCore new_array(const Shape& shape, xp::dtype type, Device device) {
  return new_array(shape, type, exec_on(device));
}

std::int64_t checked_bytes(const Shape& shape, xp::dtype type, std::string_view context) {
  // The message parts are built only when a check fails: new_array is on every operation's path.
  const char* const separator = context.empty() ? "" : ": ";
  // NumPy's rule: the product of the non-zero extents and the item size must fit. Checked by
  // multiplication: a division per axis cost more than the rest of the call.
  std::int64_t bytes = static_cast<std::int64_t>(itemsize(type));
  bool empty = false, too_big = false;
  for (std::int64_t extent : shape) {
    XP_CHECK(extent >= 0, ValueError, context, separator, "negative dimensions are not allowed: ", shape);
    if (extent == 0) empty = true;
    else too_big |= __builtin_mul_overflow(bytes, extent, &bytes);
  }
  XP_CHECK(!too_big, ValueError, context, separator, "an array of shape ", shape, " and dtype ", type, " is too big");
  return empty ? 0 : bytes;
}

ArrayCore new_array(const Shape& shape, xp::dtype type, const Exec& exec) {
  const Device device = exec.device;
  const std::int64_t bytes = checked_bytes(shape, type);
  MemoryPool& pool = get_default_memory_pool(device);
  // The arena of exec's stream; streams whose work is done as it is queued share the host one.
  Allocation memory =
      pool.malloc(static_cast<std::size_t>(bytes), exec.asynchronous ? exec.stream.native_handle() : nullptr);
  void* data = memory.get();
  return ArrayCore(std::make_shared<Buffer>(std::move(memory)), data, shape,
                   contiguous_strides(shape), device, type);
}

ArrayCore borrowed_host_array(const void* data, const Shape& shape, xp::dtype type) {
  return ArrayCore(nullptr, const_cast<void*>(data), shape, contiguous_strides(shape), cpu(0), type);
}

StridedView view_of(const ArrayCore& a, const Exec& exec) {
  if (a.buffer()) a.buffer()->order_access(exec);
  return {a.raw_data(), a.dtype(), a.shape(), a.strides()};
}

Exec exec_for(Device device, const Stream* stream, std::string_view op) {
  if (!stream) return exec_on(device);
  XP_CHECK(stream->device() == device, DeviceMismatchError, op, ": the stream is on ",
           stream->device(), " but the array is on ", device);
  return exec_on(*stream);
}

}  // namespace xp::detail
