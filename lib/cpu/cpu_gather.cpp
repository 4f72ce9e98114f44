// Row gathers on host devices: each row's elements in the order of its positions, moved as bits.
#include "core/bit_dispatch.hpp"
#include "cpu/cpu_radix_sort.hpp"
#include "cpu/cpu_sort.hpp"

namespace xp::detail {

void cpu_gather(const GatherCall& call, const Exec&) {
  const std::int64_t n = call.segments * call.length;
  const int parts = n >= 2 * kParallelGrain ? cpu_threads() : 1;
  visit_bits(call.itemsize, [&](auto bits) {
    using T = typename decltype(bits)::type;
    const auto* const in = static_cast<const T*>(call.input);
    auto* const out = static_cast<T*>(call.output);
    for_parts(n, parts, [&](std::int64_t, std::int64_t begin, std::int64_t end) {
      for_each_row_segment(begin, end, call.length,
                           [&](std::int64_t row, std::int64_t, std::int64_t count, std::int64_t at) {
                             const T* const source = in + row * call.source_length;
                             for (std::int64_t k = at; k < at + count; ++k) out[k] = source[call.indices[k]];
                           });
    });
  });
}

}  // namespace xp::detail
