// Gathers and scatters through index arrays on GPUs (core/indexed_call.hpp), one thread per element.
// Mode raise records the first faulty broadcast position with atomicMin and reads it back: the one
// synchronisation. A scatter that writes lets the last of repeated positions win, as the CPU's does:
// each index cell first learns the largest broadcast position aimed at it (atomicMax), then only
// that one writes. Sums, maxima and minima are atomic combinations: their order, and so a float sum's
// rounding, varies from run to run.
#include "core/bit_dispatch.hpp"
#include "cuda/cuda_check.hpp"
#include "cuda/cuda_segments.hpp"
#include "xp/kernels/compute_dtypes.hpp"
#include "xp/kernels/cuda/launch.cuh"
#include "xp/kernels/scatter_ops.hpp"

namespace xp::detail {

namespace {

using kernels::IndexedLayout;
using Key = unsigned long long;
constexpr Key kNoFault = ~0ull;

// Element lin's view offset and broadcast position; false (the fault recorded) outside an axis.
__device__ bool locate(const IndexedLayout& layout, long long lin, long long& at, long long& b, Key* fault) {
  const long long row = lin / layout.inner_size;
  b = row % layout.arrays.size;
  std::int64_t offset = 0, given = 0;
  int array = 0;
  if (!kernels::index_offset(layout.arrays, b, offset, array, given)) {
    atomicMin(fault, static_cast<Key>(b) * kMaxNdim + static_cast<Key>(array));
    return false;
  }
  at = layout.outer.offset(row / layout.arrays.size) + offset + layout.inner.offset(lin % layout.inner_size);
  return true;
}

template <class T>
__global__ void gather_elements(IndexedLayout layout, const T* view, T* out, long long n, Key* fault) {
  for (long long lin = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; lin < n;
       lin += static_cast<long long>(gridDim.x) * blockDim.x) {
    long long at = 0, b = 0;
    if (locate(layout, lin, at, b, fault)) out[lin] = view[at];
  }
}

__global__ void check_positions(kernels::IndexArrays arrays, Key* fault) {
  for (long long b = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; b < arrays.size;
       b += static_cast<long long>(gridDim.x) * blockDim.x) {
    std::int64_t offset = 0, given = 0;
    int array = 0;
    if (!kernels::index_offset(arrays, b, offset, array, given))
      atomicMin(fault, static_cast<Key>(b) * kMaxNdim + static_cast<Key>(array));
  }
}

// The index cell of broadcast position b: its positions, C order over every indexed axis.
__device__ long long cell_of(const kernels::IndexArrays& arrays, long long b) {
  long long cell = 0;
  int axis = 0;
  for (int g = 0; g < arrays.count; ++g) {
    std::int64_t position = arrays.positions[g][b];
    long long extent = 1;
    for (int k = axis; k < axis + arrays.dims[g]; ++k) extent *= arrays.extents[k];
    if (arrays.dims[g] == 1) kernels::resolve_position(position, extent, arrays.mode);
    cell = cell * extent + position;
    axis += arrays.dims[g];
  }
  return cell;
}

// Winner: 32 bits when the broadcast positions (plus one) fit, else 64.
template <class Winner>
__global__ void claim_cells(kernels::IndexArrays arrays, Winner* winners, bool reset) {
  for (long long b = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; b < arrays.size;
       b += static_cast<long long>(gridDim.x) * blockDim.x) {
    Winner* const winner = winners + cell_of(arrays, b);
    if (reset) *winner = 0;
    else atomicMax(winner, static_cast<Winner>(b + 1));
  }
}

template <class T, class Winner>
__global__ void assign_elements(IndexedLayout layout, T* view, const T* values, long long step, long long n,
                                const Winner* winners) {
  for (long long lin = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; lin < n;
       lin += static_cast<long long>(gridDim.x) * blockDim.x) {
    long long at = 0, b = 0;
    if (locate(layout, lin, at, b, nullptr) && winners[cell_of(layout.arrays, b)] == static_cast<Winner>(b + 1))
      view[at] = values[lin * step];
  }
}

// *address = combine(*address, value), as a compare-and-swap loop on the aligned word holding it
// (2-byte and 1-byte elements share their word with others, which the loop leaves as they are).
template <class T, class Combine>
__device__ void combine_at(T* address, T value, Combine combine) {
  using Word = std::conditional_t<sizeof(T) == 8, unsigned long long, unsigned int>;
  const auto raw = reinterpret_cast<std::uintptr_t>(address);
  Word* const word = reinterpret_cast<Word*>(raw & ~static_cast<std::uintptr_t>(sizeof(Word) - 1));
  const unsigned shift = static_cast<unsigned>(raw & (sizeof(Word) - 1)) * 8;
  Word mask = ~Word{0};
  if constexpr (sizeof(T) < sizeof(Word)) mask = ((Word{1} << (8 * sizeof(T))) - 1) << shift;
  Word expected = *word;
  while (true) {
    T old;
    const Word bits = (expected & mask) >> shift;
    memcpy(&old, &bits, sizeof(T));
    const T combined = combine(old, value);
    Word part = 0;
    memcpy(&part, &combined, sizeof(T));
    const Word desired = (expected & ~mask) | (part << shift);
    if (desired == expected) return;
    const Word prior = atomicCAS(word, expected, desired);
    if (prior == expected) return;
    expected = prior;
  }
}

template <class T>
__device__ void add_at(T* address, T value) {
  if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double> || std::is_same_v<T, int> ||
                std::is_same_v<T, unsigned>) {
    atomicAdd(address, value);
  } else if constexpr (std::is_same_v<T, long long> || std::is_same_v<T, unsigned long long> ||
                       std::is_same_v<T, long> || std::is_same_v<T, unsigned long>) {
    atomicAdd(reinterpret_cast<unsigned long long*>(address), static_cast<unsigned long long>(value));
  } else if constexpr (kernels::is_complex_v<T>) {
    auto* const parts = reinterpret_cast<typename T::value_type*>(address);
    atomicAdd(parts, value.real());
    atomicAdd(parts + 1, value.imag());
  } else {
    combine_at(address, value, kernels::Combine<kernels::Add>{});
  }
}

// One kernel per type, the operation a run-time argument: three per type made this file 45 kernels.
template <class T>
__global__ void combine_elements(IndexedLayout layout, T* view, const T* values, long long step, long long n,
                                 ScatterOp op) {
  for (long long lin = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; lin < n;
       lin += static_cast<long long>(gridDim.x) * blockDim.x) {
    long long at = 0, b = 0;
    if (!locate(layout, lin, at, b, nullptr)) continue;
    const T value = values[lin * step];
    if (op == ScatterOp::add) add_at(view + at, value);
    else if (op == ScatterOp::max) combine_at(view + at, value, kernels::Combine<kernels::Maximum>{});
    else combine_at(view + at, value, kernels::Combine<kernels::Minimum>{});
  }
}

struct Launch {
  int device;
  cudaStream_t stream;
};

// The fault mode raise recorded (read back: the synchronisation), with the position as given.
IndexFault read_fault(const Key* fault, const kernels::IndexArrays& arrays, const Launch& on) {
  Key key = kNoFault;
  XP_CUDA_CHECK(cudaMemcpyAsync(&key, fault, sizeof key, cudaMemcpyDeviceToHost, on.stream), on.device);
  XP_CUDA_CHECK(cudaStreamSynchronize(on.stream), on.device);
  if (key == kNoFault) return {};
  IndexFault found{true, static_cast<int>(key % kMaxNdim), 0};
  const std::int64_t* const given = arrays.positions[found.array] + key / kMaxNdim;
  XP_CUDA_CHECK(cudaMemcpy(&found.position, given, sizeof found.position, cudaMemcpyDeviceToHost), on.device);
  return found;
}

Allocation fault_flag(const IndexedCall& call, const Exec& exec, const Launch& on) {
  Allocation flag = call.scratch->malloc(sizeof(Key), exec.stream);
  XP_CUDA_CHECK(cudaMemsetAsync(flag.get(), 0xff, sizeof(Key), on.stream), on.device);
  return flag;
}

long long cells_of(const kernels::IndexArrays& arrays) {
  long long cells = 1;
  for (int g = 0, axis = 0; g < arrays.count; axis += arrays.dims[g++])
    for (int k = axis; k < axis + arrays.dims[g]; ++k) cells *= arrays.extents[k];
  return cells;
}

// One winner per index cell (the product of the indexed extents: at most the view's size).
template <class T, class Winner>
void assign_with(const IndexedCall& call, const Exec& exec, const Launch& on, long long n, long long step) {
  const kernels::IndexArrays& arrays = call.layout.arrays;
  const Allocation winners =
      call.scratch->malloc(static_cast<std::size_t>(cells_of(arrays)) * sizeof(Winner), exec.stream);
  auto* const cells = static_cast<Winner*>(winners.get());
  launch<&claim_cells<Winner>>(on.device, arrays.size, on.stream, arrays, cells, true);
  launch<&claim_cells<Winner>>(on.device, arrays.size, on.stream, arrays, cells, false);
  launch<&assign_elements<T, Winner>>(on.device, n, on.stream, call.layout, static_cast<T*>(call.view),
                                      static_cast<const T*>(call.dense), step, n, static_cast<const Winner*>(cells));
}

template <class T>
void assign(const IndexedCall& call, const Exec& exec, const Launch& on, long long n, long long step) {
  if (call.layout.arrays.size < 0xffffffffll) assign_with<T, unsigned>(call, exec, on, n, step);
  else assign_with<T, unsigned long long>(call, exec, on, n, step);
}

template <class T>
void combine(const IndexedCall& call, const Launch& on, long long n, long long step) {
  launch<&combine_elements<T>>(on.device, n, on.stream, call.layout, static_cast<T*>(call.view),
                               static_cast<const T*>(call.dense), step, n, call.op);
}

}  // namespace

IndexFault cuda_gather_indexed(const IndexedCall& call, const Exec& exec) {
  const long long n = call.layout.size();
  const Launch on{exec.device.id(), static_cast<cudaStream_t>(exec.stream.native_handle())};
  if (n == 0) return {};
  const ScopedCudaDevice scope(on.device);
  const bool checked = call.layout.arrays.mode == kernels::IndexMode::raise;
  const Allocation flag = checked ? fault_flag(call, exec, on) : Allocation{};
  auto* const fault = static_cast<Key*>(flag.get());
  if (!call.dense) {
    launch<&check_positions>(on.device, call.layout.arrays.size, on.stream, call.layout.arrays, fault);
    return read_fault(fault, call.layout.arrays, on);
  }
  visit_bits(itemsize(call.type), [&](auto bits) {
    using T = typename decltype(bits)::type;
    launch<&gather_elements<T>>(on.device, n, on.stream, call.layout, static_cast<const T*>(call.view),
                                static_cast<T*>(call.dense), n, fault);
  });
  return checked ? read_fault(fault, call.layout.arrays, on) : IndexFault{};
}

IndexFault cuda_scatter_indexed(const IndexedCall& call, const Exec& exec) {
  const long long n = call.layout.size();
  const Launch on{exec.device.id(), static_cast<cudaStream_t>(exec.stream.native_handle())};
  const ScopedCudaDevice scope(on.device);
  if (call.layout.arrays.mode == kernels::IndexMode::raise && call.layout.arrays.size > 0) {
    const Allocation flag = fault_flag(call, exec, on);
    auto* const fault = static_cast<Key*>(flag.get());
    launch<&check_positions>(on.device, call.layout.arrays.size, on.stream, call.layout.arrays, fault);
    if (const IndexFault found = read_fault(fault, call.layout.arrays, on); found.found) return found;
  }
  if (n == 0) return {};
  const long long step = call.one_value ? 0 : 1;
  if (call.op == ScatterOp::assign) {
    visit_bits(itemsize(call.type), [&](auto bits) { assign<typename decltype(bits)::type>(call, exec, on, n, step); });
  } else if (call.type == xp::dtype::float16) {
    combine<float16>(call, on, n, step);
  } else if (call.type == xp::dtype::bfloat16) {
    combine<bfloat16>(call, on, n, step);
  } else {
    XP_CHECK(call.type != xp::dtype::complex128 || call.op == ScatterOp::add, TypeError,
             "scatter_max and scatter_min: complex128 is not supported on GPUs (no 16-byte atomic on sm_80)");
    kernels::visit_compute_dtype(call.type,
                                 [&](auto type) { combine<typename decltype(type)::type>(call, on, n, step); });
  }
  return {};
}

}  // namespace xp::detail
