#pragma once
// Runs f with `threads` OpenMP threads on this thread, then restores the previous count; returns f's
// result.
#include <omp.h>

#include <type_traits>

template <class F>
auto with_threads(int threads, F f) {
  const int previous = omp_get_max_threads();
  omp_set_num_threads(threads);
  if constexpr (std::is_void_v<decltype(f())>) {
    f();
    omp_set_num_threads(previous);
  } else {
    auto result = f();
    omp_set_num_threads(previous);
    return result;
  }
}
