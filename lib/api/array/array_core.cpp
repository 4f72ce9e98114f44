#include "core/layout.hpp"
#include "xp/ndarray.hpp"

namespace xp::detail {

ArrayCore::ArrayCore(xp::dtype type) noexcept : dtype_(type) {
  shape_.push_back(0);
  strides_.push_back(1);
}

ArrayCore::ArrayCore(std::shared_ptr<Buffer> buffer, void* data, const Shape& shape, const Strides& strides,
                     Device device, xp::dtype type) noexcept
    : buffer_(std::move(buffer)),
      data_(data),
      shape_(shape),
      strides_(strides),
      size_(static_cast<std::size_t>(numel(shape))),
      device_(device),
      dtype_(type),
      contiguous_(is_c_contiguous(shape, strides)) {}

Device common_device(std::string_view op, std::span<const ArrayCore* const> arrays, std::span<const int> positions) {
  XP_ASSERT(!arrays.empty() && (positions.empty() || positions.size() == arrays.size()));
  const auto position = [&](std::size_t i) { return positions.empty() ? static_cast<int>(i) : positions[i]; };
  const Device device = arrays[0]->device();
  for (std::size_t i = 1; i < arrays.size(); ++i)
    XP_CHECK(arrays[i]->device() == device, DeviceMismatchError, op, ": argument ", position(0), " is on ", device,
             " but argument ", position(i), " is on ", arrays[i]->device());
  return device;
}

}  // namespace xp::detail
