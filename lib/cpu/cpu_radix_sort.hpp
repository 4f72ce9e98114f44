#pragma once
// A stable least-significant-digit radix sort of unsigned keys with optional values, split into
// `parts` pieces run on the CPU's threads (histograms per piece, then each piece scatters its
// elements to its own offsets: the order of equal keys is the input's). Passes whose digit is the
// same for every key are skipped. Rows under kInsertionLength sort by insertion.
#include <cstdint>

#include "xp/kernels/cpu/parallel_for.hpp"

namespace xp::detail {

inline constexpr std::int64_t kInsertionLength = 48;

// Two buffers of keys and of values (V = void: none); the sort moves elements between them and says
// which one holds the result.
template <class K, class V>
struct RadixBuffers {
  K* keys[2];
  V* values[2];
};

// Sorts n pairs starting in buffer 0; returns the buffer (0 or 1) holding the sorted pairs.
template <class K, class V>
int radix_sort(const RadixBuffers<K, V>& buffers, std::int64_t n, int parts);

// Runs f(k) for k in [0, tasks) on the CPU's threads, one task per chunk.
template <class F>
void run_tasks(std::int64_t tasks, F& f) {
  parallel_for(
      tasks, 1,
      [](void* context, std::int64_t begin, std::int64_t end) {
        for (std::int64_t k = begin; k < end; ++k) (*static_cast<F*>(context))(k);
      },
      &f);
}

// Runs f(k, begin, end) over the `parts` contiguous pieces k of [0, n).
template <class F>
void for_parts(std::int64_t n, int parts, F&& f) {
  auto piece = [&](std::int64_t k) { f(k, n * k / parts, n * (k + 1) / parts); };
  run_tasks(parts, piece);
}

}  // namespace xp::detail
