// The built-in reductions: conversions, checks, plans, and compositions (mean, var, std, norm are
// sums and elementwise operations).
#include <array>

#include "api/array/device_services.hpp"
#include "xp/detail/reduction_ops.hpp"
#include "xp/detail/reduction_planner.hpp"
#include "xp/ndarray.hpp"
#include "xp/profile.hpp"

namespace xp::detail {

namespace {

ArrayCore converted(const ArrayCore& x, xp::dtype type) { return x.dtype() == type ? x : astype(x, type); }

// A monoid over x (converted to the monoid's dtype); the result in that dtype (argmax, argmin: int64).
ArrayCore run_monoid(Reduction r, Monoid monoid, const ArrayCore& x, const Axes& axes, bool keepdims) {
  const std::string_view name = reduction_name(r);
  const xp::dtype type = monoid_dtype(monoid, x.dtype());
  const ArrayCore input = converted(x, type);
  const bool arg = monoid == Monoid::argmax || monoid == Monoid::argmin;
  XP_CHECK(!arg || axes.all() || axes.list().size() == 1, ValueError, name, ": takes one axis or all of them, not ",
           axes.list().size());
  ReductionPlan plan;
  const ArrayCore result =
      plan_reduction(name, input, axes, keepdims, /*ordered=*/arg, arg ? xp::dtype::int64 : type, plan);
  // NumPy's rule: an empty reduction without an identity is an error even when there is no output.
  if (plan.reduced == 0) {
    XP_CHECK(r != Reduction::max && r != Reduction::min, ValueError, name, ": zero-size array to reduction operation ",
             r == Reduction::max ? "maximum" : "minimum", " which has no identity");
    XP_CHECK(!arg, ValueError, name, ": attempt to get ", name, " of an empty sequence");
  }
  kernels_for(plan.exec.device).reduce(ReductionCall{monoid, type}, plan);
  return result;
}

// total divided by the number of elements each output reduced (the input size over the output
// size), less ddof.
ArrayCore scaled(const ArrayCore& total, const ArrayCore& x, std::int64_t ddof) {
  const auto count = total.size() == 0 ? 0 : static_cast<std::int64_t>(x.size() / total.size());
  const std::array<Operand, 2> operands{Operand{&total, {}},
                                        Operand{nullptr, scalar_value(static_cast<double>(count - ddof))}};
  return elementwise(ElementwiseOp::divide, operands);
}

// |x|^2 elementwise: real for complex x (var, std and norm of complex numbers are real, as NumPy's).
ArrayCore squared_magnitudes(const ArrayCore& x) {
  if (is_complex(x.dtype())) {
    const std::array<Operand, 1> value{Operand{&x, {}}};
    return squared_magnitudes(elementwise(ElementwiseOp::abs, value));
  }
  const std::array<Operand, 2> operands{Operand{&x, {}}, Operand{&x, {}}};
  return elementwise(ElementwiseOp::multiply, operands);
}

ArrayCore sqrt_of(const ArrayCore& x) {
  const std::array<Operand, 1> operands{Operand{&x, {}}};
  return elementwise(ElementwiseOp::sqrt, operands);
}

}  // namespace

ArrayCore reduce(Reduction r, const ArrayCore& x, const Axes& axes, bool keepdims, std::int64_t ddof) {
  const profile_range profiled(reduction_name(r));
  if (is_two_byte_float(x.dtype())) {
    // 2-byte floats reduce in float32 (accumulating as CuPy and PyTorch do) and round once at the end.
    return converted(reduce(r, astype(x, xp::dtype::float32), axes, keepdims, ddof), reduction_dtype(r, x.dtype()));
  }
  switch (r) {
    case Reduction::sum: return run_monoid(r, Monoid::sum, x, axes, keepdims);
    case Reduction::prod: return run_monoid(r, Monoid::prod, x, axes, keepdims);
    case Reduction::max: return converted(run_monoid(r, Monoid::max, x, axes, keepdims), x.dtype());
    case Reduction::min: return converted(run_monoid(r, Monoid::min, x, axes, keepdims), x.dtype());
    case Reduction::argmax: return run_monoid(r, Monoid::argmax, x, axes, keepdims);
    case Reduction::argmin: return run_monoid(r, Monoid::argmin, x, axes, keepdims);
    case Reduction::all: return run_monoid(r, Monoid::min, converted(x, xp::dtype::bool_), axes, keepdims);
    case Reduction::any: return run_monoid(r, Monoid::max, converted(x, xp::dtype::bool_), axes, keepdims);
    case Reduction::mean: {
      const ArrayCore values = converted(x, moment_dtype(x.dtype()));
      return scaled(run_monoid(r, Monoid::sum, values, axes, keepdims), values, 0);
    }
    case Reduction::var:
    case Reduction::std: {
      const ArrayCore values = converted(x, moment_dtype(x.dtype()));
      const ArrayCore mean = reduce(Reduction::mean, values, axes, /*keepdims=*/true, 0);
      const std::array<Operand, 2> difference{Operand{&values, {}}, Operand{&mean, {}}};
      const ArrayCore deviations = elementwise(ElementwiseOp::subtract, difference);
      const ArrayCore variance =
          scaled(run_monoid(r, Monoid::sum, squared_magnitudes(deviations), axes, keepdims), values, ddof);
      return r == Reduction::var ? variance : sqrt_of(variance);
    }
    case Reduction::norm: {
      const ArrayCore values = converted(x, moment_dtype(x.dtype()));
      return sqrt_of(run_monoid(r, Monoid::sum, squared_magnitudes(values), axes, keepdims));
    }
  }
  XP_ASSERT(false);
  return x;
}

}  // namespace xp::detail
