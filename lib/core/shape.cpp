#include "xp/shape.hpp"

#include <ostream>
#include <sstream>

namespace xp {

namespace {
template <class Dims>
std::ostream& print_tuple(std::ostream& out, const Dims& dims) {
  out << '(';
  for (int axis = 0; axis < dims.ndim(); ++axis) out << (axis ? ", " : "") << dims[axis];
  return out << (dims.ndim() == 1 ? ",)" : ")");
}
}  // namespace

std::ostream& operator<<(std::ostream& out, const Shape& shape) { return print_tuple(out, shape); }
std::ostream& operator<<(std::ostream& out, const Strides& strides) { return print_tuple(out, strides); }

std::int64_t numel(const Shape& shape) noexcept {
  std::int64_t n = 1;
  for (std::int64_t extent : shape) n *= extent;
  return n;
}

template <class Tag>
void detail::Dims<Tag>::throw_too_many(std::span<const std::int64_t> extents) {
  std::ostringstream text;
  for (std::size_t axis = 0; axis < extents.size(); ++axis) text << (axis ? ", " : "") << extents[axis];
  throw ValueError(extents.size(), " extents (", text.str(), "): arrays have at most ", kMaxNdim, " dimensions");
}
template void detail::Dims<ShapeTag>::throw_too_many(std::span<const std::int64_t>);
template void detail::Dims<StridesTag>::throw_too_many(std::span<const std::int64_t>);

Strides contiguous_strides(const Shape& shape) noexcept {
  Strides strides;
  std::int64_t stride = 1;
  for (int axis = 0; axis < shape.ndim(); ++axis) strides.push_back(0);
  for (int axis = shape.ndim() - 1; axis >= 0; --axis) {
    strides[axis] = stride;
    stride *= shape[axis];
  }
  return strides;
}

}  // namespace xp
