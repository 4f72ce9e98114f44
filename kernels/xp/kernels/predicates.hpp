#pragma once
// Comparisons and logical functors: they return bool. Which comparison or connective is a member
// read at run time, so one compiled loop per element type serves all six comparisons (the choice
// is the same for every element, so the compiler hoists it out of the loop). Complex numbers compare in
// NumPy's order (complex_math.hpp).
#ifndef __CUDACC_RTC__
#include <cmath>
#include <type_traits>
#endif

#include "xp/host_device.hpp"
#include "xp/kernels/complex_math.hpp"

namespace xp::kernels {

struct Compare {
  enum Kind : unsigned char { equal, not_equal, less, less_equal, greater, greater_equal };
  Kind kind;

  template <class T>
  XP_HOST_DEVICE bool operator()(T a, T b) const {
    switch (kind) {
      case equal: return a == b;
      case not_equal: return a != b;
      case less: return kernels::less(a, b);
      case less_equal: return kernels::less_equal(a, b);
      case greater: return kernels::less(b, a);
      case greater_equal: break;
    }
    return kernels::less_equal(b, a);
  }
};

struct Logical {
  enum Kind : unsigned char { both, either, exactly_one };
  Kind kind;

  template <class T>
  XP_HOST_DEVICE bool operator()(T a, T b) const {
    const bool x = a != T(0), y = b != T(0);
    return kind == both ? (x && y) : kind == either ? (x || y) : x != y;
  }
};

struct LogicalNot {
  template <class T>
  XP_HOST_DEVICE bool operator()(T a) const {
    return a == T(0);
  }
};

// isnan, isinf and isfinite, the one asked read at run time; a complex number is NaN or infinite when a
// part is. Integers and bool are finite.
enum class ClassKind : unsigned char { nan, inf, finite };

// isnan, isinf and isfinite. The kind is a template argument, so that each loop is a plain comparison the
// compiler vectorises (with the kind a member, it was a branch per element: isnan ran at half a copy's speed).
template <ClassKind kind>
struct Classify {
  template <class T>
  XP_HOST_DEVICE bool operator()(T a) const {
    if constexpr (is_complex_v<T>) {
      if constexpr (kind == ClassKind::nan) return is_nan(a);
      else if constexpr (kind == ClassKind::inf) return std::isinf(a.real()) || std::isinf(a.imag());
      else return std::isfinite(a.real()) && std::isfinite(a.imag());
    } else if constexpr (std::is_floating_point_v<T>) {
      if constexpr (kind == ClassKind::nan) return a != a;
      else if constexpr (kind == ClassKind::inf) return std::isinf(a);
      else return std::isfinite(a);
    } else {
      return kind == ClassKind::finite;
    }
  }
};
// Integers are neither NaN nor infinite: one loop, isnan's, serves the two.
template <class T, ClassKind kind>
using ClassifyOf = Classify<std::is_integral_v<T> && kind == ClassKind::inf ? ClassKind::nan : kind>;

struct SignBit {
  template <class T>
  XP_HOST_DEVICE bool operator()(T a) const {
    return std::signbit(a);
  }
};

}  // namespace xp::kernels
