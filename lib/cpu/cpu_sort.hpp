#pragma once
// Sorts, scans and row gathers of host devices (core/segment_calls.hpp), on the CPU's threads.
#include "core/segment_calls.hpp"
#include "xp/detail/exec.hpp"

namespace xp::detail {

void cpu_sort(const SortCall& call, const Exec& exec);
void cpu_scan(const ScanCall& call, const Exec& exec);
void cpu_gather(const GatherCall& call, const Exec& exec);

}  // namespace xp::detail
