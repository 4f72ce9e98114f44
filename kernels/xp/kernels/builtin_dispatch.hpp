#pragma once
// From a built-in operation's code and compute dtype to its functor and element types: one table,
// compiled by each backend with its own runner. A runner has
//   template <class R, class... In, class F> void run(const F& f) const;
// which runs f over the call's plan, with result type R and input types In (Narrow<S> for a 2-byte
// float S, which the operations compute in float).
// The table is split into six groups, so that backends compile them in parallel.
#include <cstdint>
#include <type_traits>

#include "xp/detail/elementwise_ops.hpp"
#include "xp/dtype.hpp"
#include "xp/error.hpp"
#include "xp/kernels/arithmetic.hpp"
#include "xp/kernels/bitwise.hpp"
#include "xp/kernels/builtin_runner.hpp"
#include "xp/kernels/complex_math.hpp"
#include "xp/kernels/divisors.hpp"
#include "xp/kernels/element_types.hpp"
#include "xp/kernels/float_functions.hpp"
#include "xp/kernels/predicates.hpp"
#include "xp/kernels/real_float_functions.hpp"
#include "xp/kernels/selection.hpp"

namespace xp::kernels {

using detail::ElementwiseCall;
using detail::ElementwiseOp;

enum class OpGroup { arithmetic, division, predicates, float_functions, real_float_functions, selection };

constexpr bool is_division(ElementwiseOp op) {
  return op == ElementwiseOp::mod || op == ElementwiseOp::floor_divide || op == ElementwiseOp::fmod ||
         op == ElementwiseOp::gcd || op == ElementwiseOp::lcm;
}

constexpr OpGroup group_of(ElementwiseOp op) {
  if (op == ElementwiseOp::where || op == ElementwiseOp::clip) return OpGroup::selection;
  if (is_division(op)) return OpGroup::division;
  if (detail::is_predicate(op)) return OpGroup::predicates;
  if (detail::is_real_float_function(op)) return OpGroup::real_float_functions;
  if (detail::is_float_function(op) && op != ElementwiseOp::divide) return OpGroup::float_functions;
  return OpGroup::arithmetic;
}

template <class S, class Runner>
struct NarrowingRunner;

// The compute dtypes a runner's table is compiled for, all of them and those floating-point functions
// take; a NarrowingRunner's only float32 (its entries of other types would be its inner runner's,
// compiled again for nothing).
template <class Runner>
struct table_types {
  using all = detail::compute_element_types;
  using floats = detail::type_list<float, double, std::complex<float>, std::complex<double>>;
  using reals = detail::type_list<float, double>;
};
template <class S, class Runner>
struct table_types<NarrowingRunner<S, Runner>> {
  using all = detail::type_list<float>;
  using floats = all;
  using reals = all;
};

// Calls f(std::type_identity<T>{}) with the type the table computes dtype t in (kernel_value_t).
template <class List, class F>
void visit_table_dtype(List list, dtype t, F&& f) {
  XP_ASSERT(!is_two_byte_float(t));
  detail::visit_list(list, t,
                     [&](auto type) { f(std::type_identity<kernel_value_t<typename decltype(type)::type>>{}); });
}

// Runs f over T inputs; its result type is what f returns for them (real for abs of a complex).
template <class T, int arity, class Runner, class F>
void run_function(const Runner& runner, const F& f) {
  if constexpr (arity == 1) runner.template run<decltype(f(T{})), T>(f);
  else runner.template run<decltype(f(T{}, T{})), T, T>(f);
}

// The types an operation is not defined for are never compiled; the API rejects them first.
template <class T, int arity, bool defined, class Runner, class F>
void run_if(const Runner& runner, const F& f) {
  if constexpr (defined) run_function<T, arity>(runner, f);
  else XP_ASSERT(false);
}

template <class Runner>
void dispatch_arithmetic(const ElementwiseCall& call, const Runner& runner) {
  if (call.op == ElementwiseOp::divide) {
    XP_ASSERT(call.compute == dtype::float32 || call.compute == dtype::float64 || is_complex(call.compute));
    visit_table_dtype(typename table_types<Runner>::floats{}, call.compute, [&](auto type) {
      using T = typename decltype(type)::type;
      runner.template run<T, T, T>(Divide{});
    });
    return;
  }
  visit_table_dtype(typename table_types<Runner>::all{}, call.compute, [&](auto type) {
    using T = typename decltype(type)::type;
    constexpr bool is_bool = std::is_same_v<T, bool>;
    constexpr bool is_integral = std::is_integral_v<T>;  // bool too
    switch (call.op) {
      case ElementwiseOp::add: return runner.template run<T, T, T>(Add{});
      case ElementwiseOp::multiply: return runner.template run<T, T, T>(Multiply{});
      case ElementwiseOp::maximum: return runner.template run<T, T, T>(Maximum{});
      case ElementwiseOp::minimum: return runner.template run<T, T, T>(Minimum{});
      case ElementwiseOp::abs: return run_function<T, 1>(runner, Abs{});
      case ElementwiseOp::conj: return run_function<T, 1>(runner, Conj{});
      case ElementwiseOp::real: return run_function<T, 1>(runner, RealPart{});
      case ElementwiseOp::imag: return run_function<T, 1>(runner, ImagPart{});
      case ElementwiseOp::subtract: return run_if<T, 2, !is_bool>(runner, Subtract{});
      case ElementwiseOp::fmax: return runner.template run<T, T, T>(Fmax{});
      case ElementwiseOp::fmin: return runner.template run<T, T, T>(Fmin{});
      case ElementwiseOp::power: return run_if<T, 2, !is_bool>(runner, Power{});
      case ElementwiseOp::negative: return run_if<T, 1, !is_bool>(runner, Negative{});
      case ElementwiseOp::floor: return run_if<T, 1, !is_complex_v<T>>(runner, RoundingOf<T, RoundingKind::floor>{});
      case ElementwiseOp::ceil: return run_if<T, 1, !is_complex_v<T>>(runner, RoundingOf<T, RoundingKind::ceil>{});
      case ElementwiseOp::trunc: return run_if<T, 1, !is_complex_v<T>>(runner, RoundingOf<T, RoundingKind::trunc>{});
      case ElementwiseOp::square: return run_if<T, 1, !is_bool>(runner, Square{});
      case ElementwiseOp::reciprocal: return run_if<T, 1, !is_bool>(runner, Reciprocal{});
      case ElementwiseOp::sign: return run_if<T, 1, !is_bool>(runner, Sign{});
      case ElementwiseOp::bitwise_and: return run_if<T, 2, is_integral>(runner, BitwiseAnd{});
      case ElementwiseOp::bitwise_or: return run_if<T, 2, is_integral>(runner, BitwiseOr{});
      case ElementwiseOp::bitwise_xor: return run_if<T, 2, is_integral>(runner, BitwiseXor{});
      case ElementwiseOp::invert: return run_if<T, 1, is_integral>(runner, Invert{});
      case ElementwiseOp::left_shift: return run_if < T, 2, is_integral && !is_bool > (runner, LeftShift{});
      case ElementwiseOp::right_shift: return run_if < T, 2, is_integral && !is_bool > (runner, RightShift{});
      default: XP_ASSERT(false);
    }
  });
}

// The remainders, floor division, gcd and lcm: integer division in every integer type.
template <class Runner>
void dispatch_division(const ElementwiseCall& call, const Runner& runner) {
  visit_table_dtype(typename table_types<Runner>::all{}, call.compute, [&](auto type) {
    using T = typename decltype(type)::type;
    constexpr bool is_real_number = !std::is_same_v<T, bool> && !is_complex_v<T>;
    constexpr bool is_integer = std::is_integral_v<T> && !std::is_same_v<T, bool>;
    switch (call.op) {
      case ElementwiseOp::mod: return run_if<T, 2, is_real_number>(runner, Mod{});
      case ElementwiseOp::floor_divide: return run_if<T, 2, is_real_number>(runner, FloorDivide{});
      case ElementwiseOp::fmod: return run_if<T, 2, is_real_number>(runner, Fmod{});
      case ElementwiseOp::gcd: return run_if<T, 2, is_integer>(runner, Gcd{});
      case ElementwiseOp::lcm: return run_if<T, 2, is_integer>(runner, Lcm{});
      default: XP_ASSERT(false);
    }
  });
}

template <class Runner>
void dispatch_predicates(const ElementwiseCall& call, const Runner& runner) {
  visit_table_dtype(typename table_types<Runner>::all{}, call.compute, [&](auto type) {
    using T = typename decltype(type)::type;
    switch (call.op) {
      case ElementwiseOp::logical_and: return runner.template run<bool, T, T>(Logical{Logical::both});
      case ElementwiseOp::logical_or: return runner.template run<bool, T, T>(Logical{Logical::either});
      case ElementwiseOp::logical_xor: return runner.template run<bool, T, T>(Logical{Logical::exactly_one});
      case ElementwiseOp::logical_not: return runner.template run<bool, T>(LogicalNot{});
      case ElementwiseOp::isnan: return runner.template run<bool, T>(ClassifyOf<T, ClassKind::nan>{});
      case ElementwiseOp::isinf: return runner.template run<bool, T>(ClassifyOf<T, ClassKind::inf>{});
      case ElementwiseOp::isfinite: return runner.template run<bool, T>(ClassifyOf<T, ClassKind::finite>{});
      case ElementwiseOp::signbit: return run_if<T, 1, std::is_floating_point_v<T>>(runner, SignBit{});
      default: {
        const auto kind =
            static_cast<Compare::Kind>(static_cast<int>(call.op) - static_cast<int>(ElementwiseOp::equal));
        return runner.template run<bool, T, T>(Compare{kind});
      }
    }
  });
}

template <class Runner>
void dispatch_float_functions(const ElementwiseCall& call, const Runner& runner) {
  XP_ASSERT(call.compute == dtype::float32 || call.compute == dtype::float64 || is_complex(call.compute));
  visit_table_dtype(typename table_types<Runner>::floats{}, call.compute, [&](auto type) {
    using T = typename decltype(type)::type;
    switch (call.op) {
      case ElementwiseOp::exp: return runner.template run<T, T>(Exp{});
      case ElementwiseOp::log: return runner.template run<T, T>(Log{});
      case ElementwiseOp::log1p: return runner.template run<T, T>(Log1p{});
      case ElementwiseOp::expm1: return runner.template run<T, T>(Expm1{});
      case ElementwiseOp::sqrt: return runner.template run<T, T>(Sqrt{});
      case ElementwiseOp::sin: return runner.template run<T, T>(Sin{});
      case ElementwiseOp::cos: return runner.template run<T, T>(Cos{});
      case ElementwiseOp::tan: return runner.template run<T, T>(Tan{});
      case ElementwiseOp::tanh: return runner.template run<T, T>(Tanh{});
      case ElementwiseOp::exp2: return runner.template run<T, T>(Exp2{});
      case ElementwiseOp::log2: return runner.template run<T, T>(Log2{});
      case ElementwiseOp::log10: return runner.template run<T, T>(Log10{});
      case ElementwiseOp::arcsin: return runner.template run<T, T>(Arcsin{});
      case ElementwiseOp::arccos: return runner.template run<T, T>(Arccos{});
      case ElementwiseOp::arctan: return runner.template run<T, T>(Arctan{});
      case ElementwiseOp::sinh: return runner.template run<T, T>(Sinh{});
      case ElementwiseOp::cosh: return runner.template run<T, T>(Cosh{});
      case ElementwiseOp::arcsinh: return runner.template run<T, T>(Arcsinh{});
      case ElementwiseOp::arccosh: return runner.template run<T, T>(Arccosh{});
      case ElementwiseOp::arctanh: return runner.template run<T, T>(Arctanh{});
      case ElementwiseOp::rint: return runner.template run<T, T>(Rint{});
      case ElementwiseOp::cbrt: return run_if<T, 1, !is_complex_v<T>>(runner, Cbrt{});
      case ElementwiseOp::deg2rad: return run_if<T, 1, !is_complex_v<T>>(runner, Deg2rad{});
      case ElementwiseOp::rad2deg: return run_if<T, 1, !is_complex_v<T>>(runner, Rad2deg{});
      case ElementwiseOp::sigmoid: return runner.template run<T, T>(Sigmoid{});
      case ElementwiseOp::angle: return run_function<T, 1>(runner, Angle{});
      default: XP_ASSERT(false);
    }
  });
}

// nextafter steps through the values of the runner's storage type: a NarrowingRunner's 2-byte float's.
template <class Runner>
auto nextafter_for(const Runner&) {
  if constexpr (requires { typename Runner::storage; }) return NextafterIn<typename Runner::storage>{};
  else return Nextafter{};
}

template <class Runner>
void dispatch_real_float_functions(const ElementwiseCall& call, const Runner& runner) {
  XP_ASSERT(call.compute == dtype::float32 || call.compute == dtype::float64);
  visit_table_dtype(typename table_types<Runner>::reals{}, call.compute, [&](auto type) {
    using T = typename decltype(type)::type;
    switch (call.op) {
      case ElementwiseOp::arctan2: return runner.template run<T, T, T>(Arctan2{});
      case ElementwiseOp::hypot: return runner.template run<T, T, T>(Hypot{});
      case ElementwiseOp::copysign: return runner.template run<T, T, T>(Copysign{});
      case ElementwiseOp::nextafter: return runner.template run<T, T, T>(nextafter_for(runner));
      case ElementwiseOp::heaviside: return runner.template run<T, T, T>(Heaviside{});
      case ElementwiseOp::ldexp: return runner.template run<T, T, double>(Ldexp{});
      case ElementwiseOp::frexp_mantissa: return runner.template run<T, T>(FrexpMantissa{});
      case ElementwiseOp::frexp_exponent: return runner.template run<int, T>(FrexpExponent{});
      case ElementwiseOp::modf_fraction: return runner.template run<T, T>(ModfFraction{});
      default: XP_ASSERT(false);
    }
  });
}

template <class Runner>
void dispatch_selection(const ElementwiseCall& call, const Runner& runner) {
  visit_table_dtype(typename table_types<Runner>::all{}, call.compute, [&](auto type) {
    using T = typename decltype(type)::type;
    if (call.op == ElementwiseOp::where) runner.template run<T, bool, T, T>(Where{});
    else runner.template run<T, T, T, T>(Clip{});
  });
}

template <OpGroup G, class Runner>
void dispatch_group_in(const ElementwiseCall& call, const Runner& runner) {
  if constexpr (G == OpGroup::arithmetic) dispatch_arithmetic(call, runner);
  else if constexpr (G == OpGroup::division) dispatch_division(call, runner);
  else if constexpr (G == OpGroup::predicates) dispatch_predicates(call, runner);
  else if constexpr (G == OpGroup::float_functions) dispatch_float_functions(call, runner);
  else if constexpr (G == OpGroup::real_float_functions) dispatch_real_float_functions(call, runner);
  else dispatch_selection(call, runner);
}

// The float32 entries of the table over 2-byte float storage S: every float operand and result is
// named Narrow<S> (the runner reads it as float and rounds the result once into S). Entries of other
// types are the runner's own, shared with the calls in those types.
template <class S, class Runner>
struct NarrowingRunner {
  using storage = S;
  const Runner& runner;
  template <class T>
  using narrowed = std::conditional_t<std::is_same_v<T, float>, Narrow<S>, T>;

  template <class R, class... In, class F>
  void run(const F& f) const {
    runner.template run<narrowed<R>, narrowed<In>...>(f);
  }
};

template <OpGroup G, class Runner>
void dispatch_group(const ElementwiseCall& call, const Runner& runner) {
  if (!is_two_byte_float(call.compute)) return dispatch_group_in<G>(call, runner);
  ElementwiseCall in_float = call;
  in_float.compute = dtype::float32;
  if (call.compute == dtype::float16) dispatch_group_in<G>(in_float, NarrowingRunner<float16, Runner>{runner});
  else dispatch_group_in<G>(in_float, NarrowingRunner<bfloat16, Runner>{runner});
}

// Calls f.template operator()<G>() with the group of `op` (backends compile a file per group).
template <class F>
void with_group(ElementwiseOp op, F&& f) {
  switch (group_of(op)) {
    case OpGroup::arithmetic: return f.template operator()<OpGroup::arithmetic>();
    case OpGroup::division: return f.template operator()<OpGroup::division>();
    case OpGroup::predicates: return f.template operator()<OpGroup::predicates>();
    case OpGroup::float_functions: return f.template operator()<OpGroup::float_functions>();
    case OpGroup::real_float_functions: return f.template operator()<OpGroup::real_float_functions>();
    case OpGroup::selection: break;
  }
  f.template operator()<OpGroup::selection>();
}

}  // namespace xp::kernels
