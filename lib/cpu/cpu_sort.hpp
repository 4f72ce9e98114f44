#pragma once
// Sorts, scans, row gathers, searches, selections, bin counts (core/segment_calls.hpp) and gathers and
// scatters through index arrays (core/indexed_call.hpp) of host devices, on the CPU's
// threads.
#include "core/indexed_call.hpp"
#include "core/segment_calls.hpp"
#include "xp/detail/exec.hpp"

namespace xp::detail {

void cpu_sort(const SortCall& call, const Exec& exec);
void cpu_scan(const ScanCall& call, const Exec& exec);
void cpu_gather(const GatherCall& call, const Exec& exec);
void cpu_search(const SearchCall& call, const Exec& exec);
std::int64_t cpu_select(const SelectCall& call, const Exec& exec);
void cpu_bincount(const BincountCall& call, const Exec& exec);
IndexFault cpu_gather_indexed(const IndexedCall& call, const Exec& exec);
IndexFault cpu_scatter_indexed(const IndexedCall& call, const Exec& exec);

}  // namespace xp::detail
