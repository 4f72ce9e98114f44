// searchsorted on host devices: a binary search per query (kernels/sorted_search.hpp), on every thread.
#include "cpu/cpu_radix_sort.hpp"
#include "cpu/cpu_sort.hpp"
#include "xp/kernels/sorted_search.hpp"

namespace xp::detail {

using kernels::KeyFormat;

void cpu_search(const SearchCall& call, const Exec&) {
  const int parts = call.count >= 4096 ? cpu_threads() : 1;
  kernels::with_key_format(call.type, [&]<KeyFormat F, class K>() {
    const auto search = [&]<int Parts>() {
      const auto* const sorted = static_cast<const K*>(call.sorted);
      const auto* const queries = static_cast<const K*>(call.queries);
      for_parts(call.count, parts, [&](std::int64_t, std::int64_t begin, std::int64_t end) {
        for (std::int64_t i = begin; i < end; ++i)
          call.positions[i] = kernels::insertion_point<F, Parts>(sorted, call.length, queries + i * Parts, call.right);
      });
    };
    if (is_complex(call.type)) search.template operator()<2>();
    else search.template operator()<1>();
  });
}

}  // namespace xp::detail
