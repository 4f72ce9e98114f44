#pragma once
// Layout planning shared by every backend: contiguity, squashing axes, reshaping and broadcasting
// strides, axis normalisation. Pure functions of shapes and strides (in elements).
#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <utility>
#include <vector>

#include "xp/axes.hpp"
#include "xp/shape.hpp"

namespace xp::detail {

bool is_c_contiguous(const Shape& shape, const Strides& strides) noexcept;

// Drops extent-1 axes and merges neighbouring axes that every operand walks as one, so that loops
// run over as few and as long axes as possible. Rewrites the shape and every strides in place.
// The shape must have no zero extent.
void squash_axes(Shape& shape, std::span<Strides* const> strides);

// Whether every operand walks a loop over `shape` with stride 1: the loop is 0-d, or 1-d with
// stride 1 in each of `strides`. The rule of every loop plan's `contiguous`.
bool walks_with_unit_stride(const Shape& shape, std::span<const Strides* const> strides) noexcept;

// `shape` with its one -1 extent resolved so that it holds `size` elements; ValueError otherwise.
Shape resolve_reshape(const Shape& requested, std::int64_t size);

// Strides that view (shape, strides) as new_shape without copying, or nullopt when the layout does
// not allow it (NumPy's rule). new_shape must hold the same number of elements.
std::optional<Strides> reshape_strides(const Shape& shape, const Strides& strides, const Shape& new_shape);

// The shape the given shapes broadcast to (NumPy's rules); ValueError naming `op` when they do not.
Shape broadcast_shapes(std::string_view op, std::span<const Shape* const> shapes);

// Strides of (shape, strides) broadcast to `to` (NumPy's rules); ValueError when impossible.
Strides broadcast_strides(const Shape& shape, const Strides& strides, const Shape& to);

// Which of ndim axes a reduction over `axes` reduces; CuPy's ValueErrors naming `op`: "axis 2 is
// out of bounds for array of dimension 2", "duplicate value in 'axis'".
std::array<bool, kMaxNdim> reduced_axes(std::string_view op, const Axes& axes, int ndim);

// 0, 1, ..., ndim - 1 with the last two exchanged (ndim >= 2): the transpose of a stack of matrices.
std::vector<int> last_two_swapped(int ndim);

// An axis in [-ndim, ndim) as a position in [0, ndim); ValueError naming `op` otherwise.
int normalize_axis(int axis, int ndim, std::string_view op);

// The smallest and largest element offsets a non-empty view touches.
std::pair<std::int64_t, std::int64_t> offset_range(const Shape& shape, const Strides& strides);

}  // namespace xp::detail
