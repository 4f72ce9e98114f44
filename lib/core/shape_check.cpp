#include "support/shape_check.hpp"

namespace xp::detail {

namespace {

// Whether the product of the non-zero extents and `unit` fits, left in `product`; `empty` when an
// extent is 0. The message parts are built only when a check fails: new_array runs this on every
// operation's path. Checked by multiplication: a division per axis cost more than the rest of the call.
bool product_fits(const Shape& shape, std::int64_t unit, std::string_view op, std::int64_t& product, bool& empty) {
  const char* const separator = op.empty() ? "" : ": ";
  product = unit;
  empty = false;
  bool overflow = false;
  for (std::int64_t extent : shape) {
    XP_CHECK(extent >= 0, ValueError, op, separator, "negative dimensions are not allowed: ", shape);
    if (extent == 0) empty = true;
    else overflow |= __builtin_mul_overflow(product, extent, &product);
  }
  return !overflow;
}

}  // namespace

std::int64_t checked_numel(const Shape& shape, std::string_view op) {
  std::int64_t elements = 0;
  bool empty = false;
  XP_CHECK(product_fits(shape, 1, op, elements, empty), ValueError, op, op.empty() ? "" : ": ", "a shape of ", shape,
           " has more elements than 64 bits count");
  return empty ? 0 : elements;
}

std::int64_t checked_bytes(const Shape& shape, xp::dtype type, std::string_view op) {
  std::int64_t bytes = 0;
  bool empty = false;
  XP_CHECK(product_fits(shape, static_cast<std::int64_t>(itemsize(type)), op, bytes, empty), ValueError, op,
           op.empty() ? "" : ": ", "an array of shape ", shape, " and dtype ", type, " is too big");
  return empty ? 0 : bytes;
}

std::int64_t checked_extent_sum(std::int64_t a, std::int64_t b, std::string_view op, const Shape& what) {
  std::int64_t sum = 0;
  XP_CHECK(!__builtin_add_overflow(a, b, &sum), ValueError, op, ": extents ", a, " and ", b,
           " add up past 64 bits (joining the array of shape ", what, ")");
  return sum;
}

}  // namespace xp::detail
