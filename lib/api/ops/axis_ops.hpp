#pragma once
// The operations along an axis (lib/api/ops/sorting.cpp, scans.cpp), as the recorded forms in
// lib/autograd and the backwards call them: never recorded.
#include <optional>

#include "xp/scans.hpp"
#include "xp/sorting.hpp"

namespace xp::detail {

ArrayCore sort_along(SortKind kind, const ArrayCore& a, std::optional<int> axis);
ArrayCore scan_along(Scan scan, const ArrayCore& a, std::optional<int> axis);

// NumPy's take_along_axis: out[..., j, ...] = values[..., positions[..., j, ...], ...] along `axis`,
// positions (int64) of values' shape but for their extent along the axis, each in [0, values' extent)
// (a sort's or a selection's: not checked).
ArrayCore take_positions(const ArrayCore& values, const ArrayCore& positions, int axis);

}  // namespace xp::detail
