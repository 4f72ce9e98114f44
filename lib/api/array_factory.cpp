#include "api/array_factory.hpp"

#include <limits>

#include "api/buffer.hpp"
#include "xp/memory_pool.hpp"

namespace xp::detail {

ArrayCore new_array(const Shape& shape, xp::dtype type, Device device) {
  return new_array(shape, type, exec_on(device));
}

ArrayCore new_array(const Shape& shape, xp::dtype type, const Exec& exec) {
  const Device device = exec.device;
  constexpr std::int64_t kMaxBytes = std::numeric_limits<std::int64_t>::max();
  const auto item = static_cast<std::int64_t>(itemsize(type));
  std::int64_t n = 1;
  for (std::int64_t extent : shape) {
    XP_CHECK(extent >= 0, ValueError, "negative dimensions are not allowed: ", shape);
    XP_CHECK(extent == 0 || n <= kMaxBytes / item / extent, ValueError, "an array of shape ", shape,
             " and dtype ", type, " is too big");
    n *= extent;
  }
  MemoryPool& pool = get_default_memory_pool(device);
  const auto bytes = static_cast<std::size_t>(n * item);
  // The arena of exec's stream; streams whose work is done as it is queued share the host one.
  Allocation memory = pool.malloc(bytes, exec.asynchronous ? exec.stream.native_handle() : nullptr);
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
