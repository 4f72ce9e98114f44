#pragma once
// From a built-in reduction's monoid and dtype to its functors: one table, compiled by each
// backend with its own runner, which has
//   template <class T, class Acc, class R, class Map, class Combine, class Post>
//   void run(const Acc& identity, const Map&, const Combine&, const Post&) const;
#include <cstdint>
#include <limits>
#include <type_traits>

#include "xp/detail/reduction_ops.hpp"
#include "xp/error.hpp"
#include "xp/kernels/arithmetic.hpp"
#include "xp/kernels/complex_math.hpp"
#include "xp/kernels/monoids.hpp"

namespace xp::kernels {

// The identities of max and min: below (above) every value, in NumPy's order for complex numbers.
template <class T>
constexpr T lowest() {
  if constexpr (is_complex_v<T>)
    return T(lowest<typename complex_traits<T>::real_type>(), lowest<typename complex_traits<T>::real_type>());
  else if constexpr (std::is_floating_point_v<T>) return -std::numeric_limits<T>::infinity();
  else return std::numeric_limits<T>::lowest();
}

template <class T>
constexpr T highest() {
  if constexpr (is_complex_v<T>)
    return T(highest<typename complex_traits<T>::real_type>(), highest<typename complex_traits<T>::real_type>());
  else if constexpr (std::is_floating_point_v<T>) return std::numeric_limits<T>::infinity();
  else return std::numeric_limits<T>::max();
}

template <class T, class Runner>
void run_monoid(detail::Monoid monoid, const Runner& runner) {
  using detail::Monoid;
  constexpr long long last = std::numeric_limits<long long>::max();
  switch (monoid) {
    case Monoid::max: return runner.template run<T, T, T>(lowest<T>(), Identity{}, Maximum{}, Identity{});
    case Monoid::min: return runner.template run<T, T, T>(highest<T>(), Identity{}, Minimum{}, Identity{});
    default: break;
  }
  if constexpr (std::is_same_v<T, bool>) {
    XP_ASSERT(false);  // bool is reduced as max and min only (any, all)
  } else {
    switch (monoid) {
      case Monoid::sum: return runner.template run<T, T, T>(T(0), Identity{}, Add{}, Identity{});
      case Monoid::prod: return runner.template run<T, T, T>(T(1), Identity{}, Multiply{}, Identity{});
      case Monoid::argmax:
        return runner.template run<T, ValueIndex<T>, std::int64_t>(ValueIndex<T>{lowest<T>(), last}, WithIndex{},
                                                                   ArgMax{}, IndexOf{});
      case Monoid::argmin:
        return runner.template run<T, ValueIndex<T>, std::int64_t>(ValueIndex<T>{highest<T>(), last}, WithIndex{},
                                                                   ArgMin{}, IndexOf{});
      default: XP_ASSERT(false);
    }
  }
}

template <class Runner>
void dispatch_reduction(const detail::ReductionCall& call, const Runner& runner) {
  switch (call.type) {
    case dtype::bool_: return run_monoid<bool>(call.monoid, runner);
    case dtype::int64: return run_monoid<std::int64_t>(call.monoid, runner);
    case dtype::uint64: return run_monoid<std::uint64_t>(call.monoid, runner);
    case dtype::float32: return run_monoid<float>(call.monoid, runner);
    case dtype::float64: return run_monoid<double>(call.monoid, runner);
    case dtype::complex64: return run_monoid<kernel_value_t<std::complex<float>>>(call.monoid, runner);
    case dtype::complex128: return run_monoid<kernel_value_t<std::complex<double>>>(call.monoid, runner);
    default: XP_ASSERT(false);
  }
}

}  // namespace xp::kernels
