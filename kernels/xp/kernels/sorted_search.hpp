#pragma once
// Binary search in NumPy's sort order (sort_keys.hpp), shared by the CPU and GPU searchsorted: elements
// of `Parts` words of format F (complex numbers: two, compared real part first).
#include "xp/host_device.hpp"
#include "xp/kernels/sort_keys.hpp"

namespace xp::kernels {

// Whether element x comes before element y in NumPy's order.
template <KeyFormat F, int Parts, class K>
XP_HOST_DEVICE inline bool sorts_before(const K* x, const K* y) {
  const K x0 = sort_key<F>(x[0]), y0 = sort_key<F>(y[0]);
  if constexpr (Parts == 1) return x0 < y0;
  else return x0 < y0 || (x0 == y0 && sort_key<F>(x[1]) < sort_key<F>(y[1]));
}

// The number of the `length` sorted elements that come before `query` (left), or that do not come
// after it (right): where it would be inserted.
template <KeyFormat F, int Parts, class K>
XP_HOST_DEVICE inline long long insertion_point(const K* sorted, long long length, const K* query, bool right) {
  long long first = 0;
  while (length > 0) {
    const long long half = length / 2;
    const K* const middle = sorted + (first + half) * Parts;
    const bool after = right ? !sorts_before<F, Parts>(query, middle) : sorts_before<F, Parts>(middle, query);
    first = after ? first + half + 1 : first;
    length = after ? length - half - 1 : half;
  }
  return first;
}

}  // namespace xp::kernels
