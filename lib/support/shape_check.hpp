#pragma once
// The one check of every routine that makes a shape (creation, random, reshape, broadcast_to, the shape
// functions, matmul's result, symbols' infer_shape), run before it allocates or returns a view: a
// ValueError naming the shape, prefixed by `op` when given, for a negative extent or a size that
// overflows 64 bits. NumPy's rule: the product of the non-zero extents (times the item size) must fit,
// so that every sub-product of a checked shape fits too. Shape itself refuses more than kMaxNdim axes.
#include <cstdint>
#include <string_view>

#include "xp/dtype.hpp"
#include "xp/export.hpp"
#include "xp/shape.hpp"

namespace xp::detail {

// The element count (0 when empty).
XP_API std::int64_t checked_numel(const Shape& shape, std::string_view op = {});

// The bytes of a C-contiguous array of `shape` and `type` (0 when empty).
XP_API std::int64_t checked_bytes(const Shape& shape, xp::dtype type, std::string_view op = {});

// a + b for an extent that grows (concatenate): ValueError naming the shape `what` of the array
// joined when the sum overflows.
XP_API std::int64_t checked_extent_sum(std::int64_t a, std::int64_t b, std::string_view op, const Shape& what);

}  // namespace xp::detail
