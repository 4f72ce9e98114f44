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
constexpr std::int64_t kBlock = 1 << 13;  // elements in a block: a thread's tile is kChains of them
constexpr std::int64_t kLongRow = 1 << 16;  // rows from this long scan on every thread

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

// Blocks b of the tile's [begin, end) blocks, each from offsets[b], kChains of them side by side.
template <class T, class Op>
void scan_blocks(const T* in, T* out, std::int64_t size, std::int64_t begin, std::int64_t end, const T* offsets,
                 Op op) {
  for (std::int64_t b = begin; b < end; b += kChains) {
    const int chains = static_cast<int>(std::min<std::int64_t>(kChains, end - b));
    std::array<T, kChains> acc;
    std::int64_t common = kBlock;
    for (int c = 0; c < chains; ++c) {
      acc[c] = offsets[b + c];
      common = std::min(common, std::max<std::int64_t>(0, size - (b + c) * kBlock));
    }
    for (std::int64_t i = 0; i < common; ++i)
      for (int c = 0; c < chains; ++c) out[(b + c) * kBlock + i] = acc[c] = op(acc[c], in[(b + c) * kBlock + i]);
    for (int c = 0; c < chains; ++c) {
      const std::int64_t start = (b + c) * kBlock + common, stop = std::min(size, (b + c + 1) * kBlock);
      if (start < stop) scan_from(in + start, out + start, stop - start, op, acc[c]);
    }
  }
}

template <class T, class Op>
void scan_long_row(const T* in, T* out, std::int64_t n, Op op, T identity, int threads) {
  const std::int64_t tile = threads * kChains * kBlock;
  std::vector<T> offsets(static_cast<std::size_t>(threads * kChains));
  T carry = identity;
  for (std::int64_t start = 0; start < n; start += tile) {
    const std::int64_t size = std::min(tile, n - start);
    const std::int64_t blocks = (size + kBlock - 1) / kBlock;
    const T* const tile_in = in + start;
    for_parts(blocks, threads, [&](std::int64_t, std::int64_t begin, std::int64_t end) {
      for (std::int64_t b = begin; b < end; ++b)
        offsets[b] = combined(tile_in + b * kBlock, std::min(kBlock, size - b * kBlock), op, identity);
    });
    for (std::int64_t b = 0; b < blocks; ++b) {
      const T sum = offsets[b];
      offsets[b] = carry;
      carry = op(carry, sum);
    }
    for_parts(blocks, threads, [&](std::int64_t, std::int64_t begin, std::int64_t end) {
      scan_blocks(tile_in, out + start, size, begin, end, offsets.data(), op);
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
  } else if (call.length >= kLongRow && call.outer < threads) {
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
