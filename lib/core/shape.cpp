#include "xp/shape.hpp"

#include <ostream>

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
std::ostream& operator<<(std::ostream& out, const Strides& strides) {
  return print_tuple(out, strides);
}

std::int64_t numel(const Shape& shape) noexcept {
  std::int64_t n = 1;
  for (std::int64_t extent : shape) n *= extent;
  return n;
}

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
