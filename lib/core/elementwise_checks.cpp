#include "core/elementwise_checks.hpp"

#include <cstring>
#include <utility>

#include "core/scalar_cast.hpp"
#include "xp/error.hpp"

namespace xp::detail {

xp::dtype checked_compute_dtype(ElementwiseOp op, std::span<const OperandType> types) {
  const std::string_view name = op_name(op);
  XP_CHECK(op != ElementwiseOp::ldexp || !is_inexact_dtype(types[1].type), TypeError,
           "ldexp: the exponent must be integers or bool, not ", types[1].type, " (as NumPy's ldexp)");
  const xp::dtype compute = compute_dtype(op, types);
  if (is_defined(op, compute)) return compute;
  XP_CHECK(!is_bitwise(op), TypeError, name, ": not supported for ", compute,
           " (NumPy's bitwise operations take integers and bool)");
  XP_CHECK(!takes_integers_only(op), TypeError, name, ": not supported for ", compute, " (NumPy's ", name,
           " takes integers alone)");
  XP_CHECK(compute != xp::dtype::bool_, TypeError, name, ": not supported for bool",
           op == ElementwiseOp::sign ? " (NumPy's sign has no bool loop)" : " (use logical_not or not_equal)");
  throw TypeError(name, ": not supported for complex input (", compute, "), as NumPy's ",
                  op == ElementwiseOp::mod ? std::string_view("remainder") : name);
}

namespace {
template <class T>
T scalar_bits_as(const ElementBits& bits) {
  T value;
  std::memcpy(static_cast<void*>(&value), &bits, sizeof(T));
  return value;
}
}  // namespace

ElementBits convert_scalar(const ScalarValue& scalar, xp::dtype target, std::string_view op) {
  visit_dtype(scalar.type, [&](auto source) {
    using S = typename decltype(source)::type;
    const S value = scalar_bits_as<S>(scalar.bits);
    visit_dtype(target, [&](auto destination) {
      using D = typename decltype(destination)::type;
      if constexpr (std::is_integral_v<S> && !std::is_same_v<S, bool> && std::is_integral_v<D> &&
                    !std::is_same_v<D, bool>) {
        XP_CHECK(std::in_range<D>(value), ValueError, op, ": the scalar ", +value, " does not fit in ", target);
      } else {
        XP_ASSERT((std::is_integral_v<S> || !std::is_integral_v<D> || std::is_same_v<D, bool>));
      }
    });
  });
  return cast_scalar(scalar, target);
}

}  // namespace xp::detail
