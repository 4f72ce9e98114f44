// bincount on host devices.
#include <algorithm>

#include "cpu/cpu_radix_sort.hpp"
#include "cpu/cpu_sort.hpp"

namespace xp::detail {

namespace {

// Each piece into a histogram of its own, then the histograms added bin by bin in piece order
// (deterministic: no atomics, the same sums on every run with the same threads).
template <class T>
void count_bins(const BincountCall& call, const Exec& exec) {
  const int parts =
      static_cast<int>(std::clamp<std::int64_t>(call.length / (kParallelGrain + call.bins), 1, cpu_threads()));
  const Allocation scratch = call.scratch->malloc(static_cast<std::size_t>(parts * call.bins) * sizeof(T), exec.stream);
  T* const histograms = static_cast<T*>(scratch.get());
  for_parts(call.length, parts, [&](std::int64_t k, std::int64_t begin, std::int64_t end) {
    T* const histogram = histograms + k * call.bins;
    std::fill(histogram, histogram + call.bins, T(0));
    for (std::int64_t i = begin; i < end; ++i) {
      if constexpr (std::is_same_v<T, double>) histogram[call.bin_of[i]] += call.weights[i];
      else ++histogram[call.bin_of[i]];
    }
  });
  T* const out = static_cast<T*>(call.out);
  for_parts(call.bins, call.bins >= 2 * kParallelGrain ? cpu_threads() : 1,
            [&](std::int64_t, std::int64_t begin, std::int64_t end) {
              for (std::int64_t b = begin; b < end; ++b) {
                T total = 0;
                for (int k = 0; k < parts; ++k) total += histograms[k * call.bins + b];
                out[b] = total;
              }
            });
}

}  // namespace

void cpu_bincount(const BincountCall& call, const Exec& exec) {
  if (call.bins == 0) return;
  if (call.weights) count_bins<double>(call, exec);
  else count_bins<std::int64_t>(call, exec);
}

}  // namespace xp::detail
