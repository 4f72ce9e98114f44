#pragma once
// Sorts, scans, row gathers, searches, selections and bin counts of host devices (core/segment_calls.hpp), on the CPU's
// threads.
#include "core/segment_calls.hpp"
#include "xp/detail/exec.hpp"

namespace xp::detail {

void cpu_sort(const SortCall& call, const Exec& exec);
void cpu_scan(const ScanCall& call, const Exec& exec);
void cpu_gather(const GatherCall& call, const Exec& exec);
void cpu_search(const SearchCall& call, const Exec& exec);
std::int64_t cpu_select(const SelectCall& call, const Exec& exec);
void cpu_bincount(const BincountCall& call, const Exec& exec);

}  // namespace xp::detail
