#pragma once
// Indexing through index arrays (lib/api/ops/indexing.cpp), as the public functions, the recorded
// forms in lib/autograd and the backwards call them: never recorded.
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "core/indexed_call.hpp"
#include "xp/ndarray.hpp"

namespace xp::detail {

// The address `offset` elements past the first of `a`'s view; null for an array without memory (an
// empty one), where no offset may be added.
inline char* element_address(const ArrayCore& a, std::int64_t offset) noexcept {
  char* first = static_cast<char*>(a.raw_data());
  return first ? first + offset * static_cast<std::int64_t>(a.itemsize()) : nullptr;
}

// The positions (int64, 1-d, C order) of the true elements of a bool array: the count is read back
// (a GPU's one synchronisation).
ArrayCore true_positions(const ArrayCore& mask, std::string_view op);

// a[indices] with `mode` for positions outside their axis (raise: IndexError, NumPy's text): a view
// for basic indices, a new array for advanced ones.
ArrayCore gather_index(const ArrayCore& a, std::span<const Index> indices, kernels::IndexMode mode,
                       std::string_view op);

// a[indices] op= values, values of a's dtype on a's device, broadcast to the selection (ValueError
// otherwise). assign: the last of repeated positions wins.
void scatter_index(ScatterOp op, const ArrayCore& a, std::span<const Index> indices, const ArrayCore& values,
                   kernels::IndexMode mode, std::string_view name);

// a[indices] = value (recorded::assign_selection's work, xp/ndarray.hpp).
void assign_selection(const ArrayCore& a, std::span<const Index> indices, const Operand& value);

// NumPy's mode names: "raise", "wrap", "clip" (ValueError otherwise).
kernels::IndexMode index_mode(std::string_view mode);

// take's result when no element comes before `axis`: empty, and no position checked (NumPy checks
// them only as it copies). nullopt otherwise.
std::optional<ArrayCore> take_without_rows(const ArrayCore& a, const ArrayCore& indices, int axis);

// take's index along `axis`: ':' for the axes before it, then the indices.
std::vector<Index> take_index(int axis, const ArrayCore& indices);

// take_along_axis's index: the indices along `axis`, every position of the other axes (broadcast
// aranges). ValueError when indices and a differ in dimensions (NumPy's text).
std::vector<Index> along_axis_index(const ArrayCore& a, const ArrayCore& indices, int axis);

}  // namespace xp::detail
