#pragma once
// Sorts, scans, row gathers, searches, selections and bin counts on GPUs (core/segment_calls.hpp),
// one cuda_<name>.cu each, every launch on exec.stream.
#include "core/indexed_call.hpp"
#include "core/segment_calls.hpp"
#include "xp/detail/exec.hpp"

namespace xp::detail {

void cuda_sort(const SortCall& call, const Exec& exec);
void cuda_scan(const ScanCall& call, const Exec& exec);
void cuda_gather(const GatherCall& call, const Exec& exec);
void cuda_search(const SearchCall& call, const Exec& exec);
std::int64_t cuda_select(const SelectCall& call, const Exec& exec);
void cuda_bincount(const BincountCall& call, const Exec& exec);
IndexFault cuda_gather_indexed(const IndexedCall& call, const Exec& exec);
IndexFault cuda_scatter_indexed(const IndexedCall& call, const Exec& exec);

}  // namespace xp::detail
