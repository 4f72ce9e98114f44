#pragma once
// Memory overlap between views: what decides whether a copy or an in-place operation needs a
// temporary, and whether an array can be written to at all.
#include "xp/ndarray.hpp"

namespace xp::detail {

// Whether the two views may touch a common byte (conservative: compares the spans they cover).
bool may_overlap(const ArrayCore& a, const ArrayCore& b);

// Several positions of the view are one element in memory (a broadcast view): not writable.
bool has_repeated_elements(const ArrayCore& a);

}  // namespace xp::detail
