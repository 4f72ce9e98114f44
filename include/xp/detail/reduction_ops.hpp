#pragma once
// The built-in reductions: their codes and result dtypes (constexpr, so typed and run-time typed
// results agree), and how a call reaches a backend.
#include <cstdint>
#include <string_view>

#include "xp/export.hpp"
#include "xp/promotion.hpp"

namespace xp::detail {

enum class Reduction : std::uint8_t { sum, prod, max, min, argmax, argmin, all, any, mean, var, std, norm };

XP_API std::string_view reduction_name(Reduction r) noexcept;

// sum and prod: NumPy's (bool and signed integers in int64, unsigned in uint64).
constexpr xp::dtype sum_dtype(xp::dtype t) {
  if (is_inexact_dtype(t)) return t;
  return is_unsigned_dtype(t) ? xp::dtype::uint64 : xp::dtype::int64;
}

// mean, var, std and norm of integers are float64, as NumPy's.
constexpr xp::dtype moment_dtype(xp::dtype t) { return is_inexact_dtype(t) ? t : xp::dtype::float64; }

constexpr xp::dtype reduction_dtype(Reduction r, xp::dtype t) {
  switch (r) {
    case Reduction::sum:
    case Reduction::prod: return sum_dtype(t);
    case Reduction::max:
    case Reduction::min: return t;
    case Reduction::argmax:
    case Reduction::argmin: return xp::dtype::int64;
    case Reduction::all:
    case Reduction::any: return xp::dtype::bool_;
    case Reduction::mean: return moment_dtype(t);
    default: return real_part_type(moment_dtype(t));  // var, std, norm: real for complex input, as NumPy
  }
}

// What backends run: a monoid over elements of one dtype (bool, int64, uint64, a float or complex type),
// writing that dtype (argmax and argmin: int64 positions) into the plan's output.
enum class Monoid : std::uint8_t { sum, prod, max, min, argmax, argmin };

struct XP_API ReductionCall {
  Monoid monoid;
  xp::dtype type;
};

// The dtype a backend reduces elements of dtype t in, for a monoid.
constexpr xp::dtype monoid_dtype(Monoid m, xp::dtype t) {
  if (is_inexact_dtype(t)) return t;
  if (t == xp::dtype::bool_ && (m == Monoid::max || m == Monoid::min)) return t;
  return is_unsigned_dtype(t) ? xp::dtype::uint64 : xp::dtype::int64;
}

}  // namespace xp::detail
