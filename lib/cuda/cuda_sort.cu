// Sorts on GPUs, all through CUB's DeviceRadixSort, instantiated per key width (32 or 64 bits: 1- and
// 2-byte elements sort as 32-bit keys over their own bits) and position width (32 bits below 2^32
// elements), six instantiations in all:
// - the elements become sort keys (xp/kernels/sort_keys.hpp, the CPU's map) sorted with their positions
//   in the whole array; complex numbers by the imaginary parts' keys, then stably by the real parts';
// - several rows sort as one array, then stably by row number (its significant bits only): each row
//   sorted and in place, as DeviceSegmentedSort would leave them, for a fraction of its build (its
//   instantiations took a minute of this file's 97 s);
// - one kernel writes the positions within the row and the sorted elements, gathered by position
//   (one row's integers sorted alone come back from their keys; one row's floats of 4 or 8 bytes ride
//   along as the values).
// Scratch comes from the device's pool on the call's stream.
#include <bit>
#include <cub/device/device_radix_sort.cuh>
#include <limits>
#include <type_traits>

#include "cuda/cuda_check.hpp"
#include "cuda/cuda_segments.hpp"
#include "xp/kernels/cuda/launch.cuh"
#include "xp/kernels/sort_keys.hpp"
#include "xp/memory_pool.hpp"

namespace xp::detail {

namespace {

using kernels::KeyFormat;

// keys[i]: the key of `part` (of `parts` words an element: complex numbers' real 0, imaginary 1) of
// the element at positions[i] (null: at i), and that position into placed[i].
template <KeyFormat F, class E, class K, class V>
__global__ void make_keys(const E* in, int parts, int part, const V* positions, K* keys, V* placed, long long n) {
  for (long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<long long>(gridDim.x) * blockDim.x) {
    const V position = positions ? positions[i] : static_cast<V>(i);
    keys[i] = static_cast<K>(kernels::sort_key<F>(in[static_cast<long long>(position) * parts + part]));
    if (placed) placed[i] = position;
  }
}

template <class V>
__global__ void make_row_keys(const V* positions, V* rows, long long n, long long length) {
  for (long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<long long>(gridDim.x) * blockDim.x)
    rows[i] = positions[i] / static_cast<V>(length);
}

// The call's outputs: positions within the row, and the elements at the sorted positions (positions
// null: from the sorted keys themselves, for integers).
template <KeyFormat F, class E, class K, class V>
__global__ void write_sorted(const E* in, int parts, const K* keys, const V* positions, E* sorted, long long* indices,
                             long long n, long long length) {
  for (long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<long long>(gridDim.x) * blockDim.x) {
    if (indices) indices[i] = static_cast<long long>(positions[i] % static_cast<V>(length));
    if (!sorted) continue;
    if constexpr (kernels::invertible_keys<F>) {
      if (!positions) {
        sorted[i] = kernels::element_of_key<F>(static_cast<E>(keys[i]));
        continue;
      }
    }
    for (int w = 0; w < parts; ++w) sorted[i * parts + w] = in[static_cast<long long>(positions[i]) * parts + w];
  }
}

// What every step of one sort needs.
struct SortRun {
  const SortCall& call;
  const Exec& exec;
  int device;
  cudaStream_t stream;
  long long n;

  template <class T>
  T* buffer(Allocation& holder) const {
    holder = call.scratch->malloc(static_cast<std::size_t>(n) * sizeof(T), exec.stream);
    return static_cast<T*>(holder.get());
  }
};

// A stable radix sort of the n (key, value) pairs, or of the keys alone (V void), over bits [0, end_bit).
template <class K, class V>
void radix_sort(const SortRun& r, const K* keys_in, K* keys_out, const V* values_in, V* values_out, int end_bit) {
  std::size_t bytes = 0;
  const auto sort = [&](void* temp) {
    if constexpr (std::is_void_v<V>)
      return cub::DeviceRadixSort::SortKeys(temp, bytes, keys_in, keys_out, r.n, 0, end_bit, r.stream);
    else
      return cub::DeviceRadixSort::SortPairs(temp, bytes, keys_in, keys_out, values_in, values_out, r.n, 0, end_bit,
                                             r.stream);
  };
  XP_CUDA_CHECK(sort(nullptr), r.device);
  const Allocation temp = r.call.scratch->malloc(std::max<std::size_t>(bytes, 1), r.exec.stream);
  XP_CUDA_CHECK(sort(temp.get()), r.device);
}

// Stably by row number: `sorted` (positions in the whole array) end up grouped by row, each row's in
// their order. Returns the buffer that holds them.
template <class V>
V* group_by_row(const SortRun& r, V* sorted, V* spare) {
  Allocation holders[2];
  V* const rows[2] = {r.buffer<V>(holders[0]), r.buffer<V>(holders[1])};
  launch<&make_row_keys<V>>(r.device, r.n, r.stream, sorted, rows[0], r.n, r.call.length);
  const int bits = static_cast<int>(std::bit_width(static_cast<unsigned long long>(r.call.segments - 1)));
  radix_sort<V, V>(r, rows[0], rows[1], sorted, spare, bits);
  return spare;
}

// Elements E of format F as keys K, positions V.
template <KeyFormat F, class E, class V>
void sort_elements(const SortRun& r, int parts) {
  using K = std::conditional_t<sizeof(E) <= 4, std::uint32_t, std::uint64_t>;
  constexpr int bits = static_cast<int>(8 * sizeof(E));
  const auto* const in = static_cast<const E*>(r.call.keys);
  auto* const sorted = static_cast<E*>(r.call.sorted);
  auto* const indices = reinterpret_cast<long long*>(r.call.indices);
  Allocation holders[4];
  K* const keys[2] = {r.buffer<K>(holders[0]), r.buffer<K>(holders[1])};
  if (!indices && r.call.segments == 1 && parts == 1) {
    if constexpr (kernels::invertible_keys<F>) {
      launch<&make_keys<F, E, K, V>>(r.device, r.n, r.stream, in, 1, 0, nullptr, keys[0], nullptr, r.n);
      radix_sort<K, void>(r, keys[0], keys[1], nullptr, nullptr, bits);
      launch<&write_sorted<F, E, K, V>>(r.device, r.n, r.stream, in, 1, keys[1], nullptr, sorted, nullptr, r.n,
                                        r.call.length);
      return;
    } else if constexpr (sizeof(E) == sizeof(K)) {
      // Float keys map both zeros and every NaN to one key each, so the elements ride along as the
      // values, straight from the input into the output (stably): gathering them by position afterwards
      // read scattered sectors (2.2 of 4.8 ms at 2^26 float32 on an H100).
      launch<&make_keys<F, E, K, V>>(r.device, r.n, r.stream, in, 1, 0, nullptr, keys[0], nullptr, r.n);
      radix_sort<K, E>(r, keys[0], keys[1], in, sorted, bits);
      return;
    }
  }
  V* const positions[2] = {r.buffer<V>(holders[2]), r.buffer<V>(holders[3])};
  const V* order = nullptr;
  for (int part = parts - 1; part >= 0; --part) {
    launch<&make_keys<F, E, K, V>>(r.device, r.n, r.stream, in, parts, part, order, keys[0], positions[0], r.n);
    radix_sort<K, V>(r, keys[0], keys[1], positions[0], positions[1], bits);
    order = positions[1];
  }
  if (r.call.segments > 1) order = group_by_row(r, positions[1], positions[0]);
  launch<&write_sorted<F, E, K, V>>(r.device, r.n, r.stream, in, parts, keys[1], order, sorted, indices, r.n,
                                    r.call.length);
}

template <KeyFormat F, class E>
void sort_as(const SortRun& r) {
  const int parts = is_complex(r.call.type) ? 2 : 1;
  if (r.n > static_cast<long long>(std::numeric_limits<std::uint32_t>::max()))
    sort_elements<F, E, std::uint64_t>(r, parts);
  else sort_elements<F, E, std::uint32_t>(r, parts);
}

}  // namespace

void cuda_sort(const SortCall& call, const Exec& exec) {
  if (call.segments == 0 || call.length == 0) return;
  const int device = exec.device.id();
  const ScopedCudaDevice scope(device);
  const auto stream = static_cast<cudaStream_t>(exec.stream.native_handle());
  const SortRun run{call, exec, device, stream, call.segments * call.length};
  kernels::with_key_format(call.type, [&]<KeyFormat F, class E>() { sort_as<F, E>(run); });
}

}  // namespace xp::detail
