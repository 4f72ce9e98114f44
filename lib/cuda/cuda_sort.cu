// Sorts on GPUs: the elements become sort keys (xp/kernels/sort_keys.hpp, the CPU's map), CUB sorts
// them (DeviceRadixSort for one row, DeviceSegmentedSort for many) with their positions in the row,
// and one kernel writes the positions and the sorted elements (integers from their keys; floats and
// complex numbers gathered by position, since their keys do not give the bits back). Complex rows sort
// twice: by the imaginary parts, then stably by the real parts. CUB's instantiations are per key width,
// not per dtype; scratch comes from the device's pool on the call's stream.
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_segmented_sort.cuh>
#include <limits>

#include "cuda/cuda_check.hpp"
#include "cuda/cuda_segments.hpp"
#include "xp/kernels/cuda/launch.cuh"
#include "xp/kernels/sort_keys.hpp"
#include "xp/memory_pool.hpp"

namespace xp::detail {

namespace {

using kernels::KeyFormat;

// keys[i]: the key of element i's `part` (0: the element or a complex real part, 1: imaginary part)
// of the element at row(i) and column positions[i] (positions null: column i % length); columns[i]
// is that column (when wanted).
template <KeyFormat F, class K, class V>
__global__ void make_keys(const K* in, int parts, int part, const V* positions, K* keys, V* columns, long long n,
                          long long length) {
  for (long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<long long>(gridDim.x) * blockDim.x) {
    const long long column = positions ? static_cast<long long>(positions[i]) : i % length;
    keys[i] = kernels::sort_key<F>(in[(i - i % length + column) * parts + part]);
    if (columns) columns[i] = static_cast<V>(column);
  }
}

// The call's outputs from the sorted keys and positions; `width` K words an element.
template <KeyFormat F, class K, class V>
__global__ void write_sorted(const K* in, int width, const K* keys, const V* columns, K* sorted, long long* indices,
                             long long n, long long length) {
  for (long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<long long>(gridDim.x) * blockDim.x) {
    if (indices) indices[i] = static_cast<long long>(columns[i]);
    if (!sorted) continue;
    if constexpr (kernels::invertible_keys<F>) {
      sorted[i] = kernels::element_of_key<F>(keys[i]);
    } else {
      const long long from = i - i % length + static_cast<long long>(columns[i]);
      for (int w = 0; w < width; ++w) sorted[i * width + w] = in[from * width + w];
    }
  }
}

struct RowStart {
  long long length;
  __host__ __device__ long long operator()(long long row) const { return row * length; }
};

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

// One CUB sort of (keys, values), or of keys alone (V void), over every row of the call.
template <bool Segmented, class K, class V>
void cub_sort(const SortRun& r, const K* keys_in, K* keys_out, const V* values_in, V* values_out) {
  const auto starts =
      thrust::make_transform_iterator(thrust::make_counting_iterator<long long>(0), RowStart{r.call.length});
  std::size_t bytes = 0;
  const auto sort = [&](void* temp) {
    constexpr int bits = static_cast<int>(sizeof(K) * 8);
    if constexpr (!Segmented && std::is_void_v<V>)
      return cub::DeviceRadixSort::SortKeys(temp, bytes, keys_in, keys_out, r.n, 0, bits, r.stream);
    else if constexpr (!Segmented)
      return cub::DeviceRadixSort::SortPairs(temp, bytes, keys_in, keys_out, values_in, values_out, r.n, 0, bits,
                                             r.stream);
    else if constexpr (std::is_void_v<V>)
      return cub::DeviceSegmentedSort::StableSortKeys(temp, bytes, keys_in, keys_out, r.n, r.call.segments, starts,
                                                      starts + 1, r.stream);
    else
      return cub::DeviceSegmentedSort::StableSortPairs(temp, bytes, keys_in, keys_out, values_in, values_out, r.n,
                                                       r.call.segments, starts, starts + 1, r.stream);
  };
  XP_CUDA_CHECK(sort(nullptr), r.device);
  const Allocation temp = r.call.scratch->malloc(std::max<std::size_t>(bytes, 1), r.exec.stream);
  XP_CUDA_CHECK(sort(temp.get()), r.device);
}

// Integers wanting only the sorted elements: their keys alone, turned back into elements.
template <bool Segmented, KeyFormat F, class K>
void sort_keys_only(const SortRun& r) {
  Allocation keys_holder[2];
  K* const keys[2] = {r.buffer<K>(keys_holder[0]), r.buffer<K>(keys_holder[1])};
  const auto* const in = static_cast<const K*>(r.call.keys);
  launch<&make_keys<F, K, std::uint32_t>>(r.device, r.n, r.stream, in, 1, 0, nullptr, keys[0], nullptr, r.n,
                                          r.call.length);
  cub_sort<Segmented, K, void>(r, keys[0], keys[1], nullptr, nullptr);
  launch<&write_sorted<F, K, std::uint32_t>>(r.device, r.n, r.stream, in, 1, keys[1], nullptr,
                                             static_cast<K*>(r.call.sorted), nullptr, r.n, r.call.length);
}

// Keys with their positions in the row (complex: two sorts, the imaginary parts' first).
template <bool Segmented, KeyFormat F, class K, class V>
void sort_with_positions(const SortRun& r, bool complex) {
  Allocation holders[4];
  K* const keys[2] = {r.buffer<K>(holders[0]), r.buffer<K>(holders[1])};
  V* const columns[2] = {r.buffer<V>(holders[2]), r.buffer<V>(holders[3])};
  const auto* const in = static_cast<const K*>(r.call.keys);
  const int width = complex ? 2 : 1;
  const V* positions = nullptr;
  for (int part = width - 1; part >= 0; --part) {
    launch<&make_keys<F, K, V>>(r.device, r.n, r.stream, in, width, part, positions, keys[0], columns[0], r.n,
                                r.call.length);
    cub_sort<Segmented, K, V>(r, keys[0], keys[1], columns[0], columns[1]);
    positions = columns[1];
  }
  launch<&write_sorted<F, K, V>>(r.device, r.n, r.stream, in, width, keys[1], columns[1],
                                 static_cast<K*>(r.call.sorted), reinterpret_cast<long long*>(r.call.indices), r.n,
                                 r.call.length);
}

template <bool Segmented, KeyFormat F, class K, class V>
void sort_as(const SortRun& r) {
  const bool complex = is_complex(r.call.type);
  if constexpr (kernels::invertible_keys<F>) {
    if (!r.call.indices) return sort_keys_only<Segmented, F, K>(r);
  }
  if constexpr (F == KeyFormat::binary32 || F == KeyFormat::binary64) {
    if (complex) return sort_with_positions<Segmented, F, K, V>(r, true);
  }
  sort_with_positions<Segmented, F, K, V>(r, false);
}

// Rows too long for 32-bit positions, one at a time.
template <KeyFormat F, class K>
void sort_long_rows(const SortCall& call, const Exec& exec, int device, cudaStream_t stream) {
  const std::size_t row_bytes = static_cast<std::size_t>(call.length) * itemsize(call.type);
  for (std::int64_t row = 0; row < call.segments; ++row) {
    SortCall one = call;
    one.segments = 1;
    one.keys = static_cast<const char*>(call.keys) + row * row_bytes;
    if (call.sorted) one.sorted = static_cast<char*>(call.sorted) + row * row_bytes;
    if (call.indices) one.indices = call.indices + row * call.length;
    sort_as<false, F, K, std::uint64_t>(SortRun{one, exec, device, stream, call.length});
  }
}

}  // namespace

void cuda_sort(const SortCall& call, const Exec& exec) {
  if (call.segments == 0 || call.length == 0) return;
  const int device = exec.device.id();
  const ScopedCudaDevice scope(device);
  const auto stream = static_cast<cudaStream_t>(exec.stream.native_handle());
  kernels::with_key_format(call.type, [&]<KeyFormat F, class K>() {
    if (call.length > std::numeric_limits<std::uint32_t>::max())
      return sort_long_rows<F, K>(call, exec, device, stream);
    const SortRun run{call, exec, device, stream, call.segments * call.length};
    if (call.segments == 1) sort_as<false, F, K, std::uint32_t>(run);
    else sort_as<true, F, K, std::uint32_t>(run);
  });
}

}  // namespace xp::detail
