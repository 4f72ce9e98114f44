// Arrays over memory another owner allocated: a buffer that holds the owner's deleter instead of a
// pooled allocation, released as any buffer is (after the streams that used it).
#include "xp/foreign_memory.hpp"

#include <cstdint>
#include <memory>
#include <utility>

#include "api/array/buffer.hpp"
#include "support/shape_check.hpp"

namespace xp {

namespace {

// The alignment an element needs: its size, or a complex number's part's.
std::size_t element_alignment(xp::dtype type) {
  const std::size_t size = itemsize(type);
  return is_complex(type) ? size / 2 : size;
}

}  // namespace

ndarray<> wrap(void* data, const Shape& shape, const Strides& strides, xp::dtype type, Device device,
               std::function<void(void*)> deleter) {
  const std::int64_t bytes = detail::checked_bytes(shape, type, "wrap");
  XP_CHECK(data || bytes == 0, ValueError, "wrap: a null pointer cannot hold ", numel(shape), " elements of shape ",
           shape);
  XP_CHECK(reinterpret_cast<std::uintptr_t>(data) % element_alignment(type) == 0, ValueError, "wrap: the address ",
           data, " is not aligned for ", type, " (", element_alignment(type), " bytes)");
  XP_CHECK(strides.ndim() == 0 || strides.ndim() == shape.ndim(), ValueError, "wrap: ", strides.ndim(),
           " strides for the ", shape.ndim(), " axes of shape ", shape);
  const Strides layout = strides.ndim() == 0 ? contiguous_strides(shape) : strides;
  std::shared_ptr<void> owner(data, [release = std::move(deleter)](void* memory) {
    if (release) release(memory);
  });
  auto buffer = std::make_shared<detail::Buffer>(std::move(owner));
  return ndarray<>(detail::ArrayCore(std::move(buffer), data, shape, layout, device, type));
}

}  // namespace xp
