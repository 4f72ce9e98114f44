#pragma once
// Sorts, scans and row gathers on GPUs (core/segment_calls.hpp): cuda_sort.cu, cuda_scan.cu,
// cuda_gather.cu, every launch on exec.stream.
#include "core/segment_calls.hpp"
#include "xp/detail/exec.hpp"

namespace xp::detail {

void cuda_sort(const SortCall& call, const Exec& exec);
void cuda_scan(const ScanCall& call, const Exec& exec);
void cuda_gather(const GatherCall& call, const Exec& exec);

}  // namespace xp::detail
