// Scans on host devices. Many rows: a row per thread, each in order (NumPy's rounding). Scans across
// rows (inner > 1): rows of running sums, vectorised over the inner elements. One long row: tiles
// that fit the threads' caches, each in two passes (the sums of its blocks, then every block scanned
// from its offset), so memory is read and written once; a thread scans several blocks at once so
// that its additions do not wait on each other.
#include <algorithm>
#include <array>
#include <vector>

#include "cpu/cpu_radix_sort.hpp"
#include "cpu/cpu_sort.hpp"
#include "xp/error.hpp"
#include "xp/kernels/arithmetic.hpp"
#include "xp/kernels/complex_math.hpp"

namespace xp::detail {

namespace {

constexpr int kChains = 8;  // blocks a thread scans at once
// Elements in a block (a thread's tile is kChains blocks: two tiles fit its L2). Chains a multiple of
// 4 KiB apart share the L1's sets: 2^13 exactly made the float32 cumsum of 2^24 7.8x slower (measured).
constexpr std::int64_t kBlock = (1 << 13) + 40;
constexpr std::int64_t kLongRow = 1 << 16;  // rows from this long scan in blocks, on every thread

template <class T, class Op>
T combined(const T* in, std::int64_t n, Op op, T identity) {
  std::array<T, kChains> partial;
  partial.fill(identity);
  std::int64_t i = 0;
  for (; i + kChains <= n; i += kChains)
    for (int c = 0; c < kChains; ++c) partial[c] = op(partial[c], in[i + c]);
  T total = identity;
  for (int c = 0; c < kChains; ++c) total = op(total, partial[c]);
  for (; i < n; ++i) total = op(total, in[i]);
  return total;
}

template <class T, class Op>
void scan_from(const T* in, T* out, std::int64_t n, Op op, T acc) {
  for (std::int64_t i = 0; i < n; ++i) out[i] = acc = op(acc, in[i]);
}

// kChains whole blocks from `first`, side by side: each chain's running value stays in a register.
template <class T, class Op>
void scan_chains(const T* in, T* out, const T* offsets, Op op) {
  std::array<T, kChains> acc;
#pragma GCC unroll 8
  for (int c = 0; c < kChains; ++c) acc[c] = offsets[c];
  for (std::int64_t i = 0; i < kBlock; ++i) {
#pragma GCC unroll 8
    for (int c = 0; c < kChains; ++c) out[c * kBlock + i] = acc[c] = op(acc[c], in[c * kBlock + i]);
  }
}

// Blocks [begin, end) of a tile of `size` elements, block b from offsets[b]: kChains at a time where
// whole, the rest one by one.
template <class T, class Op>
void scan_blocks(const T* in, T* out, std::int64_t size, std::int64_t begin, std::int64_t end, const T* offsets,
                 Op op) {
  std::int64_t b = begin;
  for (; b + kChains <= end && (b + kChains) * kBlock <= size; b += kChains)
    scan_chains(in + b * kBlock, out + b * kBlock, offsets + b, op);
  for (; b < end; ++b) {
    const std::int64_t start = b * kBlock, stop = std::min(size, start + kBlock);
    scan_from(in + start, out + start, stop - start, op, offsets[b]);
  }
}

// The sums of the blocks of the tile at `start` (blocks [begin, end) of it), into sums[b].
template <class T, class Op>
void block_sums(const T* in, std::int64_t n, std::int64_t start, std::int64_t begin, std::int64_t end, T* sums, Op op,
                T identity) {
  for (std::int64_t b = begin; b < end && start + b * kBlock < n; ++b)
    sums[b] = combined(in + start + b * kBlock, std::min(kBlock, n - start - b * kBlock), op, identity);
}

// Software-pipelined over tiles: while the threads scan tile t (writing memory) they sum the blocks
// of tile t + 1 (reading it), one parallel region a tile.
template <class T, class Op>
void scan_long_row(const T* in, T* out, std::int64_t n, Op op, T identity, int threads) {
  const std::int64_t blocks = threads * kChains, tile = blocks * kBlock;
  std::vector<T> sums[2] = {std::vector<T>(static_cast<std::size_t>(blocks)),
                            std::vector<T>(static_cast<std::size_t>(blocks))};
  block_sums(in, n, 0, 0, blocks, sums[0].data(), op, identity);
  T carry = identity;
  for (std::int64_t start = 0, t = 0; start < n; start += tile, ++t) {
    std::vector<T>& offsets = sums[t % 2];
    const std::int64_t size = std::min(tile, n - start);
    for (std::int64_t b = 0; b * kBlock < size; ++b) {
      const T block = offsets[b];
      offsets[b] = carry;
      carry = op(carry, block);
    }
    for_parts(blocks, threads, [&](std::int64_t, std::int64_t begin, std::int64_t end) {
      scan_blocks(in + start, out + start, size, begin, std::min(end, (size + kBlock - 1) / kBlock), offsets.data(),
                  op);
      block_sums(in, n, start + tile, begin, end, sums[(t + 1) % 2].data(), op, identity);
    });
  }
}

// Scans across rows: out[o][j][i] = out[o][j - 1][i] op in[o][j][i], over columns [begin, end) of the
// outer * inner columns.
template <class T, class Op>
void scan_columns(const ScanCall& call, std::int64_t begin, std::int64_t end, Op op) {
  const auto* const in = static_cast<const T*>(call.input);
  auto* const out = static_cast<T*>(call.output);
  for_each_row_segment(begin, end, call.inner, [&](std::int64_t o, std::int64_t i, std::int64_t count, std::int64_t) {
    const std::int64_t first = o * call.length * call.inner + i;
    std::copy(in + first, in + first + count, out + first);
    for (std::int64_t j = 1; j < call.length; ++j) {
      const T* const previous = out + first + (j - 1) * call.inner;
      const T* const x = in + first + j * call.inner;
      T* const y = out + first + j * call.inner;
      for (std::int64_t k = 0; k < count; ++k) y[k] = op(previous[k], x[k]);
    }
  });
}

template <class T, class Op>
void scan_typed(const ScanCall& call, Op op, T identity) {
  const int threads = cpu_threads();
  const auto* const in = static_cast<const T*>(call.input);
  auto* const out = static_cast<T*>(call.output);
  const std::int64_t columns = call.outer * call.inner;
  if (call.inner > 1) {
    auto body = [&](std::int64_t, std::int64_t begin, std::int64_t end) { scan_columns<T>(call, begin, end, op); };
    for_parts(columns, columns * call.length >= 2 * kParallelGrain ? threads : 1, body);
  } else if (call.length >= kLongRow) {
    for (std::int64_t o = 0; o < call.outer; ++o)
      scan_long_row(in + o * call.length, out + o * call.length, call.length, op, identity, threads);
  } else {
    const int parts = call.outer * call.length >= 2 * kParallelGrain ? threads : 1;
    for_parts(call.outer, static_cast<int>(std::min<std::int64_t>(parts, call.outer)),
              [&](std::int64_t, std::int64_t begin, std::int64_t end) {
                for (std::int64_t o = begin; o < end; ++o)
                  scan_from(in + o * call.length, out + o * call.length, call.length, op, identity);
              });
  }
}

template <class T>
void scan_as(const ScanCall& call) {
  if (call.op == ScanOp::sum) scan_typed<T>(call, kernels::Add{}, T(0));
  else scan_typed<T>(call, kernels::Multiply{}, T(1));
}

}  // namespace

void cpu_scan(const ScanCall& call, const Exec&) {
  if (call.outer == 0 || call.length == 0 || call.inner == 0) return;
  switch (call.type) {
    case xp::dtype::int64: return scan_as<std::int64_t>(call);
    case xp::dtype::uint64: return scan_as<std::uint64_t>(call);
    case xp::dtype::float32: return scan_as<float>(call);
    case xp::dtype::float64: return scan_as<double>(call);
    case xp::dtype::complex64: return scan_as<kernels::kernel_value_t<std::complex<float>>>(call);
    case xp::dtype::complex128: return scan_as<kernels::kernel_value_t<std::complex<double>>>(call);
    default: XP_ASSERT(false);
  }
}

}  // namespace xp::detail
