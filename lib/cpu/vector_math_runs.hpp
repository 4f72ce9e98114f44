#pragma once
// The built-in operations that the CPU computes through vector_math (cpu/vector_math.hpp), as functors that
// compute runs of elements (the CPU loop driver's ComputesRuns): float16 and bfloat16 in float, like
// their other loops. Every loop over them (contiguous, strided, over 2-byte blocks) goes through
// vector_math, so an element's result does not depend on how it is reached.
#include <cstdint>
#include <type_traits>

#include "cpu/vector_math.hpp"
#include "xp/kernels/arithmetic.hpp"
#include "xp/kernels/cast.hpp"
#include "xp/kernels/float_functions.hpp"
#include "xp/kernels/real_float_functions.hpp"

namespace xp::detail {

template <class F>
struct math_function_of {};

#define XP_MATH_FUNCTION_OF(Functor, function)                    \
  template <>                                                     \
  struct math_function_of<kernels::Functor> {                     \
    static constexpr MathFunction value = MathFunction::function; \
  };
XP_MATH_FUNCTION_OF(Exp, exp)
XP_MATH_FUNCTION_OF(Exp2, exp2)
XP_MATH_FUNCTION_OF(Expm1, expm1)
XP_MATH_FUNCTION_OF(Log, log)
XP_MATH_FUNCTION_OF(Log2, log2)
XP_MATH_FUNCTION_OF(Log10, log10)
XP_MATH_FUNCTION_OF(Log1p, log1p)
XP_MATH_FUNCTION_OF(Sin, sin)
XP_MATH_FUNCTION_OF(Cos, cos)
XP_MATH_FUNCTION_OF(Tan, tan)
XP_MATH_FUNCTION_OF(Arcsin, asin)
XP_MATH_FUNCTION_OF(Arccos, acos)
XP_MATH_FUNCTION_OF(Arctan, atan)
XP_MATH_FUNCTION_OF(Sinh, sinh)
XP_MATH_FUNCTION_OF(Cosh, cosh)
XP_MATH_FUNCTION_OF(Tanh, tanh)
XP_MATH_FUNCTION_OF(Arcsinh, asinh)
XP_MATH_FUNCTION_OF(Arccosh, acosh)
XP_MATH_FUNCTION_OF(Arctanh, atanh)
XP_MATH_FUNCTION_OF(Cbrt, cbrt)
XP_MATH_FUNCTION_OF(Arctan2, atan2)
XP_MATH_FUNCTION_OF(Hypot, hypot)
XP_MATH_FUNCTION_OF(Rounding<kernels::RoundingKind::floor>, floor)
XP_MATH_FUNCTION_OF(Rounding<kernels::RoundingKind::ceil>, ceil)
XP_MATH_FUNCTION_OF(Rounding<kernels::RoundingKind::trunc>, trunc)
XP_MATH_FUNCTION_OF(Rint, rint)
#undef XP_MATH_FUNCTION_OF

// Whether the CPU computes F of result type R through vector_math (where the CPU has it).
template <class F, class R>
inline constexpr bool computes_vector_math =
    requires { math_function_of<F>::value; } && (std::is_same_v<R, float> || std::is_same_v<R, double> ||
                                                 std::is_same_v<R, float16> || std::is_same_v<R, bfloat16>);

// A run of count elements, in blocks: operands that are arrays of the computed type and contiguous
// go to vector_math in place, others (scalars, strided, 2-byte floats) are copied into a block first.
template <MathFunction function>
struct VectorMathRuns {
  static constexpr bool computes_runs = true;

  template <class R, class... Ops>
  void run(R* out, std::int64_t out_step, std::int64_t count, const std::int64_t* steps, const Ops&... ops) const {
    using C = std::conditional_t<std::is_same_v<R, double>, double, float>;
    constexpr std::int64_t kBlock = 256;
    C inputs[sizeof...(Ops)][kBlock];
    C results[kBlock];
    for (std::int64_t start = 0; start < count; start += kBlock) {
      const std::int64_t n = count - start < kBlock ? count - start : kBlock;
      std::int64_t k = 0;
      const C* x[2] = {nullptr, nullptr};
      ((x[k] = block_of<C>(ops, steps[k], start, n, inputs[k]), ++k), ...);
      C* target = results;
      if constexpr (std::is_same_v<R, C>)
        if (out_step == 1) target = out + start;
      vector_math(function, x[0], x[1], target, n);
      if (target == results)
        for (std::int64_t j = 0; j < n; ++j) out[(start + j) * out_step] = kernels::cast<R>(results[j]);
    }
  }

 private:
  template <class C, class Op>
  static const C* block_of(const Op& op, std::int64_t step, std::int64_t start, std::int64_t n, C* block) {
    if constexpr (std::is_same_v<Op, kernels::AnyIn<C>>)
      if (op.data && step == 1) return op.data + start;
    for (std::int64_t j = 0; j < n; ++j) block[j] = static_cast<C>(op.at((start + j) * step));
    return block;
  }
};

}  // namespace xp::detail
