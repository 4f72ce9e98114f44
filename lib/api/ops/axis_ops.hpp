#pragma once
// The operations along an axis (lib/api/ops/sorting.cpp, scans.cpp), as the recorded forms in
// lib/autograd and the backwards call them: never recorded.
#include <optional>

#include "xp/sorting.hpp"

namespace xp::detail {

ArrayCore sort_along(SortKind kind, const ArrayCore& a, std::optional<int> axis);
ArrayCore scan_along(Scan scan, const ArrayCore& a, std::optional<int> axis);

// out[..., j, ...] = values[..., positions[..., j, ...], ...] along `axis`: positions (int64, values'
// shape) hold, along the axis, positions in [0, extent) (a sort's).
ArrayCore take_positions(const ArrayCore& values, const ArrayCore& positions, int axis);

}  // namespace xp::detail
