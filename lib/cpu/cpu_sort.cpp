// Sorts on host devices: each row's elements become sort keys (xp/kernels/sort_keys.hpp) radix-sorted
// with their positions (argsort) or their own bits (floats, whose keys do not give the element back).
// One long row sorts on every thread; many rows sort a row per thread.
#include "cpu/cpu_sort.hpp"

#include <algorithm>
#include <cstring>
#include <limits>

#include "cpu/cpu_radix_sort.hpp"
#include "xp/kernels/sort_keys.hpp"

namespace xp::detail {

namespace {

using kernels::KeyFormat;

// The scratch of one worker: two buffers of keys and two of values for one row.
template <class V>
constexpr std::size_t value_size = sizeof(V);
template <>
constexpr std::size_t value_size<void> = 0;

// Keys first, values from the next multiple of 8 bytes.
template <class K, class V>
std::size_t scratch_bytes(std::int64_t length) {
  const auto keys = (static_cast<std::size_t>(length) * 2 * sizeof(K) + 7) / 8 * 8;
  return keys + static_cast<std::size_t>(length) * 2 * value_size<V>;
}

template <class K, class V>
RadixBuffers<K, V> carve(std::byte* at, std::int64_t length) {
  RadixBuffers<K, V> b{};
  b.keys[0] = reinterpret_cast<K*>(at);
  b.keys[1] = b.keys[0] + length;
  if constexpr (!std::is_void_v<V>) {
    b.values[0] = reinterpret_cast<V*>(at + scratch_bytes<K, void>(length));
    b.values[1] = b.values[0] + length;
  }
  return b;
}

// One row of a real dtype: F, K its key format and type; V the positions' type, or (carries_bits) K:
// the elements' own bits, for sorts of floats that want no positions.
template <KeyFormat F, class K, class V, bool carries_bits>
void sort_real_row(const SortCall& call, std::int64_t row, const RadixBuffers<K, V>& b, int parts) {
  const std::int64_t n = call.length;
  const K* const in = static_cast<const K*>(call.keys) + row * n;
  for_parts(n, parts, [&](std::int64_t, std::int64_t begin, std::int64_t end) {
    for (std::int64_t i = begin; i < end; ++i) {
      b.keys[0][i] = kernels::sort_key<F>(in[i]);
      if constexpr (carries_bits) b.values[0][i] = in[i];
      else if constexpr (!std::is_void_v<V>) b.values[0][i] = static_cast<V>(i);
    }
  });
  const int at = radix_sort(b, n, parts);
  K* const sorted = call.sorted ? static_cast<K*>(call.sorted) + row * n : nullptr;
  std::int64_t* const indices = call.indices ? call.indices + row * n : nullptr;
  for_parts(n, parts, [&](std::int64_t, std::int64_t begin, std::int64_t end) {
    for (std::int64_t i = begin; i < end; ++i) {
      if constexpr (carries_bits) {
        sorted[i] = b.values[at][i];
      } else {
        if constexpr (!std::is_void_v<V>)
          if (indices) indices[i] = static_cast<std::int64_t>(b.values[at][i]);
        if (!sorted) continue;
        if constexpr (kernels::invertible_keys<F>) sorted[i] = kernels::element_of_key<F>(b.keys[at][i]);
        else sorted[i] = in[b.values[at][i]];
      }
    }
  });
}

// One row of a complex dtype (K: a part's bits): positions sorted by the imaginary parts, then stably
// by the real parts.
template <KeyFormat F, class K, class V>
void sort_complex_row(const SortCall& call, std::int64_t row, const RadixBuffers<K, V>& b, int parts) {
  const std::int64_t n = call.length;
  const K* const in = static_cast<const K*>(call.keys) + row * n * 2;
  for_parts(n, parts, [&](std::int64_t, std::int64_t begin, std::int64_t end) {
    for (std::int64_t i = begin; i < end; ++i) {
      b.keys[0][i] = kernels::sort_key<F>(in[2 * i + 1]);
      b.values[0][i] = static_cast<V>(i);
    }
  });
  const int first = radix_sort(b, n, parts);
  for_parts(n, parts, [&](std::int64_t, std::int64_t begin, std::int64_t end) {
    for (std::int64_t i = begin; i < end; ++i) {
      const V position = b.values[first][i];
      b.values[0][i] = position;
      b.keys[0][i] = kernels::sort_key<F>(in[2 * position]);
    }
  });
  const int at = radix_sort(b, n, parts);
  K* const sorted = call.sorted ? static_cast<K*>(call.sorted) + row * n * 2 : nullptr;
  std::int64_t* const indices = call.indices ? call.indices + row * n : nullptr;
  for_parts(n, parts, [&](std::int64_t, std::int64_t begin, std::int64_t end) {
    for (std::int64_t i = begin; i < end; ++i) {
      const V position = b.values[at][i];
      if (indices) indices[i] = static_cast<std::int64_t>(position);
      if (sorted) std::memcpy(sorted + 2 * i, in + 2 * position, 2 * sizeof(K));
    }
  });
}

// Every row with scratch from the device's pool: one row at a time on every thread when there are
// few long rows, else the rows shared among the threads.
template <class K, class V, class Row>
void sort_rows(const SortCall& call, const Exec& exec, Row row) {
  const int threads = cpu_threads();
  const bool long_rows = call.segments < threads && call.length >= (1 << 16);
  const std::int64_t workers = long_rows ? 1 : std::min<std::int64_t>(threads, call.segments);
  const std::size_t bytes = scratch_bytes<K, V>(call.length);
  const Allocation scratch = call.scratch->malloc(bytes * workers, exec.stream);
  auto* const base = static_cast<std::byte*>(scratch.get());
  if (long_rows) {
    for (std::int64_t r = 0; r < call.segments; ++r) row(r, carve<K, V>(base, call.length), threads);
    return;
  }
  auto work = [&](std::int64_t worker) {
    const RadixBuffers<K, V> b = carve<K, V>(base + bytes * worker, call.length);
    const std::int64_t first = call.segments * worker / workers, last = call.segments * (worker + 1) / workers;
    for (std::int64_t r = first; r < last; ++r) row(r, b, 1);
  };
  run_tasks(workers, work);
}

template <KeyFormat F, class K, class V, bool carries_bits = false>
void sort_real(const SortCall& call, const Exec& exec) {
  sort_rows<K, V>(call, exec, [&](std::int64_t r, const RadixBuffers<K, V>& b, int parts) {
    sort_real_row<F, K, V, carries_bits>(call, r, b, parts);
  });
}

template <KeyFormat F, class K, class V>
void sort_complex(const SortCall& call, const Exec& exec) {
  sort_rows<K, V>(call, exec, [&](std::int64_t r, const RadixBuffers<K, V>& b, int parts) {
    sort_complex_row<F, K, V>(call, r, b, parts);
  });
}

}  // namespace

void cpu_sort(const SortCall& call, const Exec& exec) {
  if (call.segments == 0 || call.length == 0) return;
  const bool wide = call.length > std::numeric_limits<std::uint32_t>::max();
  kernels::with_key_format(call.type, [&]<KeyFormat F, class K>() {
    if constexpr (F == KeyFormat::binary32 || F == KeyFormat::binary64) {
      if (is_complex(call.type)) {
        if (wide) sort_complex<F, K, std::uint64_t>(call, exec);
        else sort_complex<F, K, std::uint32_t>(call, exec);
        return;
      }
    }
    if (call.indices && wide) sort_real<F, K, std::uint64_t>(call, exec);
    else if (call.indices) sort_real<F, K, std::uint32_t>(call, exec);
    else if constexpr (kernels::invertible_keys<F>) sort_real<F, K, void>(call, exec);
    else sort_real<F, K, K, /*carries_bits=*/true>(call, exec);
  });
}

}  // namespace xp::detail
