// The elementwise operations' backwards (broadcast gradients summed back to each input's shape).
#include <array>
#include <cmath>
#include <cstring>
#include <numbers>

#include "autograd/gradient_math.hpp"
#include "autograd/graph.hpp"
#include "core/scalar_cast.hpp"

namespace xp::detail {

namespace {

using Op = ElementwiseOp;

bool differentiable(Op op) noexcept { return !is_predicate(op) && !is_bitwise(op); }

class ElementwiseBackward final : public Backward {
 public:
  ElementwiseBackward(Op op, std::span<const Operand> operands, const ArrayCore& output)
      : op_(op), arity_(static_cast<int>(operands.size())), output_(detached(output)) {
    for (int k = 0; k < arity_; ++k) {
      operands_[k] = operands[k];
      complex_ = complex_ || is_complex(operands[k].array ? operands[k].array->dtype() : operands[k].scalar.type);
      if (operands[k].array) {
        arrays_[k] = detached(*operands[k].array);
        operands_[k].array = &arrays_[k];
      }
    }
  }

  std::string_view name() const noexcept override { return op_name(op_); }
  // add, subtract, negative, conj and real pass the gradient on without reading a value; the output is
  // read by the formulas written with it (gradient()).
  std::vector<const ArrayCore*> saved() const override {
    if (op_ == Op::add || op_ == Op::subtract || op_ == Op::negative || op_ == Op::conj || op_ == Op::real) return {};
    std::vector<const ArrayCore*> read;
    for (int k = 0; k < arity_; ++k)
      if (operands_[k].array) read.push_back(&arrays_[k]);
    if (reads_output()) read.push_back(&output_);
    return read;
  }

  void run(const ArrayCore& g, std::span<const bool> needed, std::span<ArrayCore> grads) const override {
    for (int k = 0; k < arity_; ++k)
      if (needed[k]) grads[k] = fit_to(gradient(k, g), arrays_[k]);
  }

 private:
  // The gradient of operand k in the output's shape.
  ArrayCore gradient(int k, const ArrayCore& g) const {
    if (op_ == Op::conj || op_ == Op::real || op_ == Op::imag || op_ == Op::angle) return part_gradient(g);
    if (!complex_) return real_gradient(k, g);
    if (op_ == Op::abs) {  // z / |z| (0 at 0): abs is not holomorphic
      const ArrayCore ratio = apply(Op::divide, arg(apply(Op::multiply, arg(g), operands_[0])), arg(output_));
      return apply(Op::where, arg(apply(Op::equal, arg(output_), arg(0.0))), arg(0.0), arg(ratio));
    }
    return conjugate(real_gradient(k, conjugate(g)));
  }

  // conj, real, imag, angle: of z = x + iy, conj(g), g, i g and i g z / |z|^2 (0 at 0); of real input, g,
  // g, 0 and 0.
  ArrayCore part_gradient(const ArrayCore& g) const {
    const Operand& z = operands_[0];
    const Operand i{nullptr, scalar_value(std::complex<double>(0, 1))};
    if (!complex_) return op_ == Op::conj || op_ == Op::real ? g : apply(Op::multiply, arg(g), arg(0.0));
    switch (op_) {
      case Op::conj: return conjugate(g);
      case Op::real: return g;
      case Op::imag: return apply(Op::multiply, arg(g), i);
      default: break;
    }
    const ArrayCore magnitude = apply(Op::abs, z);
    const ArrayCore turned = apply(Op::multiply, arg(apply(Op::multiply, arg(g), i)), z);
    const ArrayCore ratio = apply(Op::divide, arg(turned), arg(apply(Op::multiply, arg(magnitude), arg(magnitude))));
    return apply(Op::where, arg(apply(Op::equal, arg(magnitude), arg(0.0))), arg(0.0), arg(ratio));
  }

  // The gradient of operand k by the real formulas.
  ArrayCore real_gradient(int k, const ArrayCore& g) const {
    const Operand& a = operands_[0];
    const Operand& b = operands_[1 % arity_];
    const Operand gr = arg(g), y = arg(output_);
    switch (op_) {
      case Op::add: return g;
      case Op::subtract: return k == 0 ? g : apply(Op::negative, gr);
      case Op::multiply: return apply(Op::multiply, gr, k == 0 ? b : a);
      case Op::divide:
        if (k == 0) return apply(Op::divide, gr, b);
        return apply(Op::negative, arg(apply(Op::divide, arg(apply(Op::multiply, gr, y)), b)));
      case Op::mod:  // a - floor(a / b) * b: d/db = -floor(a / b) = -(a - y) / b
        if (k == 0) return g;
        return apply(Op::negative,
                     arg(apply(Op::multiply, gr, arg(apply(Op::divide, arg(apply(Op::subtract, a, y)), b)))));
      case Op::power:
        if (k == 0) {
          const ArrayCore b_minus_one = b.array ? apply(Op::subtract, b, arg(1.0)) : ArrayCore();
          const Operand exponent = b.array ? arg(b_minus_one) : arg(scalar_as_double(b) - 1.0);
          return apply(Op::multiply, arg(apply(Op::multiply, gr, b)), arg(apply(Op::power, a, exponent)));
        }
        if (!a.array) return apply(Op::multiply, arg(apply(Op::multiply, gr, y)), arg(std::log(scalar_as_double(a))));
        return apply(Op::multiply, arg(apply(Op::multiply, gr, y)), arg(apply(Op::log, a)));
      case Op::maximum: return apply(Op::where, arg(apply(k == 0 ? Op::greater_equal : Op::less, a, b)), gr, arg(0.0));
      case Op::minimum: return apply(Op::where, arg(apply(k == 0 ? Op::less_equal : Op::greater, a, b)), gr, arg(0.0));
      case Op::negative: return apply(Op::negative, gr);
      case Op::abs:
        return apply(Op::where, arg(apply(Op::greater, a, arg(0.0))), gr,
                     arg(apply(Op::where, arg(apply(Op::less, a, arg(0.0))), arg(apply(Op::negative, gr)), arg(0.0))));
      case Op::exp: return apply(Op::multiply, gr, y);
      case Op::log: return apply(Op::divide, gr, a);
      case Op::log1p: return apply(Op::divide, gr, arg(apply(Op::add, a, arg(1.0))));
      case Op::expm1: return apply(Op::multiply, gr, arg(apply(Op::add, y, arg(1.0))));
      case Op::sqrt: return apply(Op::divide, gr, arg(apply(Op::multiply, y, arg(2.0))));
      case Op::sin: return apply(Op::multiply, gr, arg(apply(Op::cos, a)));
      case Op::cos: return apply(Op::negative, arg(apply(Op::multiply, gr, arg(apply(Op::sin, a)))));
      case Op::tan: return apply(Op::multiply, gr, arg(apply(Op::add, arg(apply(Op::multiply, y, y)), arg(1.0))));
      case Op::tanh: return apply(Op::multiply, gr, arg(apply(Op::subtract, arg(1.0), arg(apply(Op::multiply, y, y)))));
      case Op::sigmoid:
        return apply(Op::multiply, arg(apply(Op::multiply, gr, y)), arg(apply(Op::subtract, arg(1.0), y)));
      case Op::where:  // where(condition, x, y): the condition gets none
        return k == 1 ? apply(Op::where, operands_[0], gr, arg(0.0)) : apply(Op::where, operands_[0], arg(0.0), gr);
      case Op::clip: {  // clip(x, low, high)
        const Operand& x = operands_[0];
        if (k == 1) return apply(Op::where, arg(apply(Op::less, x, operands_[1])), gr, arg(0.0));
        if (k == 2) return apply(Op::where, arg(apply(Op::greater, x, operands_[2])), gr, arg(0.0));
        const ArrayCore inside = apply(Op::logical_and, arg(apply(Op::greater_equal, x, operands_[1])),
                                       arg(apply(Op::less_equal, x, operands_[2])));
        return apply(Op::where, arg(inside), gr, arg(0.0));
      }
      default: break;
    }
    if (is_real_float_function(op_) || op_ == Op::floor_divide || op_ == Op::fmod || op_ == Op::fmax || op_ == Op::fmin)
      return division_and_real_function_gradient(k, g);
    return rounding_and_trigonometric_gradient(g);
  }

  // floor_divide, fmod, fmax, fmin and the real floating-point functions of two inputs, frexp's and modf's.
  ArrayCore division_and_real_function_gradient(int k, const ArrayCore& g) const {
    const Operand& a = operands_[0];
    const Operand& b = operands_[1 % arity_];
    const Operand gr = arg(g), y = arg(output_), zero = arg(0.0);
    switch (op_) {
      case Op::floor_divide: return apply(Op::multiply, gr, zero);  // piecewise constant
      case Op::fmod:  // a - trunc(a / b) * b: d/db = -trunc(a / b) = -(a - y) / b
        if (k == 0) return g;
        return apply(Op::negative,
                     arg(apply(Op::multiply, gr, arg(apply(Op::divide, arg(apply(Op::subtract, a, y)), b)))));
      case Op::fmax:
      case Op::fmin: {  // to the operand taken: a unless b wins or a alone is NaN
        const ArrayCore a_taken =
            apply(Op::logical_or, arg(apply(op_ == Op::fmax ? Op::greater_equal : Op::less_equal, a, b)),
                  arg(apply(Op::isnan, b)));
        return k == 0 ? apply(Op::where, arg(a_taken), gr, zero) : apply(Op::where, arg(a_taken), zero, gr);
      }
      case Op::arctan2: {  // of (y, x) = (a, b): (x, -y) / (x^2 + y^2)
        const ArrayCore squares = apply(Op::add, arg(apply(Op::multiply, a, a)), arg(apply(Op::multiply, b, b)));
        const ArrayCore other =
            k == 0 ? apply(Op::multiply, gr, b) : apply(Op::negative, arg(apply(Op::multiply, gr, a)));
        return apply(Op::divide, arg(other), arg(squares));
      }
      case Op::hypot: return apply(Op::divide, arg(apply(Op::multiply, gr, k == 0 ? a : b)), y);
      case Op::copysign:  // +-1 by whether the sign changed; none for the sign's source
        if (k == 1) return apply(Op::multiply, gr, zero);
        return apply(Op::multiply, gr,
                     arg(apply(Op::where, arg(apply(Op::equal, a, zero)), zero, arg(apply(Op::divide, y, a)))));
      case Op::nextafter:  // a one step on: 1 and 0 wherever the derivative exists
        return k == 0 ? g : apply(Op::multiply, gr, zero);
      case Op::heaviside:  // the value at 0 is b's
        return k == 0 ? apply(Op::multiply, gr, zero) : apply(Op::where, arg(apply(Op::equal, a, zero)), gr, zero);
      case Op::ldexp: return apply(Op::ldexp, gr, b);  // the exponent is an integer: never needs one
      case Op::frexp_mantissa:  // a * 2^-e
        return apply(Op::ldexp, gr, arg(apply(Op::negative, arg(apply(Op::frexp_exponent, a)))));
      case Op::modf_fraction: return g;
      default: break;
    }
    XP_ASSERT(false);
    return g;
  }

  // The unary functions from floor to arctanh, by the real formulas.
  ArrayCore rounding_and_trigonometric_gradient(const ArrayCore& g) const {
    const Operand& a = operands_[0];
    const Operand gr = arg(g), y = arg(output_);
    switch (op_) {
      case Op::floor:  // piecewise constant: 0 wherever the derivative exists
      case Op::ceil:
      case Op::trunc:
      case Op::rint:
      case Op::sign: return apply(Op::multiply, gr, arg(0.0));
      case Op::square: return apply(Op::multiply, arg(apply(Op::multiply, gr, a)), arg(2.0));
      case Op::reciprocal: return apply(Op::negative, arg(apply(Op::multiply, gr, arg(apply(Op::multiply, y, y)))));
      case Op::exp2: return apply(Op::multiply, arg(apply(Op::multiply, gr, y)), arg(std::numbers::ln2));
      case Op::log2: return apply(Op::divide, gr, arg(apply(Op::multiply, a, arg(std::numbers::ln2))));
      case Op::log10: return apply(Op::divide, gr, arg(apply(Op::multiply, a, arg(std::numbers::ln10))));
      case Op::cbrt: return apply(Op::divide, gr, arg(apply(Op::multiply, arg(apply(Op::multiply, y, y)), arg(3.0))));
      case Op::arcsin: return apply(Op::divide, gr, arg(root_of_one_minus_square(a)));
      case Op::arccos: return apply(Op::negative, arg(apply(Op::divide, gr, arg(root_of_one_minus_square(a)))));
      case Op::arctan: return apply(Op::divide, gr, arg(apply(Op::add, arg(apply(Op::multiply, a, a)), arg(1.0))));
      case Op::sinh: return apply(Op::multiply, gr, arg(apply(Op::cosh, a)));
      case Op::cosh: return apply(Op::multiply, gr, arg(apply(Op::sinh, a)));
      case Op::arcsinh:
        return apply(Op::divide, gr,
                     arg(apply(Op::sqrt, arg(apply(Op::add, arg(apply(Op::multiply, a, a)), arg(1.0))))));
      case Op::arccosh:
        return apply(Op::divide, gr,
                     arg(apply(Op::sqrt, arg(apply(Op::subtract, arg(apply(Op::multiply, a, a)), arg(1.0))))));
      case Op::arctanh:
        return apply(Op::divide, gr, arg(apply(Op::subtract, arg(1.0), arg(apply(Op::multiply, a, a)))));
      case Op::deg2rad: return apply(Op::multiply, gr, arg(std::numbers::pi / 180));
      case Op::rad2deg: return apply(Op::multiply, gr, arg(180 / std::numbers::pi));
      default: break;
    }
    XP_ASSERT(false);
    return g;
  }

  bool reads_output() const noexcept {
    switch (op_) {
      case Op::divide:
      case Op::mod:
      case Op::fmod:
      case Op::hypot:
      case Op::copysign:
      case Op::power:
      case Op::exp:
      case Op::expm1:
      case Op::sqrt:
      case Op::tan:
      case Op::tanh:
      case Op::sigmoid:
      case Op::reciprocal:
      case Op::exp2:
      case Op::cbrt: return true;
      case Op::abs: return complex_;
      default: return false;
    }
  }

  // sqrt(1 - a^2), arcsin's and arccos's derivative's denominator.
  static ArrayCore root_of_one_minus_square(const Operand& a) {
    return apply(Op::sqrt, arg(apply(Op::subtract, arg(1.0), arg(apply(Op::multiply, a, a)))));
  }

  static double scalar_as_double(const Operand& s) {
    const ElementBits bits = cast_scalar(s.scalar, xp::dtype::float64);
    double value;
    std::memcpy(&value, &bits, sizeof value);
    return value;
  }

  Op op_;
  int arity_;
  bool complex_ = false;  // some operand is complex
  ArrayCore output_;
  std::array<ArrayCore, 3> arrays_;
  std::array<Operand, 3> operands_{};
};

[[gnu::noinline]] ArrayCore record_elementwise(Op op, std::span<const Operand> operands) {
  std::array<const ArrayCore*, 3> inputs{};
  static const ArrayCore no_array;  // a scalar operand's place: never needs a gradient
  for (std::size_t k = 0; k < operands.size(); ++k) inputs[k] = operands[k].array ? operands[k].array : &no_array;
  const std::span<const ArrayCore* const> used(inputs.data(), operands.size());
  ArrayCore output = elementwise(op, operands);
  if (!differentiable(op) || !is_inexact_dtype(output.dtype()) || !must_record(used)) return output;
  return connect(std::make_shared<ElementwiseBackward>(op, operands, output), used, output);
}

// Out of line, so that the path that does not record saves no registers.
[[gnu::noinline, gnu::cold]] void check_not_recorded(Op op, std::span<const Operand> operands, const ArrayCore& out) {
  std::array<const ArrayCore*, 3> inputs{};
  std::size_t n = 0;
  for (const Operand& o : operands)
    if (o.array) inputs[n++] = o.array;
  check_not_recorded_into(op_name(op), std::span(inputs.data(), n), out);
}

}  // namespace

namespace recorded {

ArrayCore elementwise(ElementwiseOp op, std::span<const Operand> operands) {
  if (!recording()) [[likely]]
    return detail::elementwise(op, operands);
  return record_elementwise(op, operands);
}

void elementwise(ElementwiseOp op, std::span<const Operand> operands, const ArrayCore& out) {
  if (recording()) [[unlikely]]
    check_not_recorded(op, operands, out);
  detail::elementwise(op, operands, out);
}

}  // namespace recorded

}  // namespace xp::detail
