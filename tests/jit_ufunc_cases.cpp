// NumPy's functions of one element in run-time kernels (xp::floor_divide(x, y), ...; jit_ufuncs.cuh): one
// kernel per element type computes every function defined for it, each into its own column of a raw output,
// against the array function of the same inputs. The same functors on both sides: the same bits on CPUs
// (the host compiler's libm on both), but for the real transcendental functions, which the array functions
// compute with libmvec where the CPU has AVX2 (within 4 ulp of libm's); GPUs within a few rounding errors,
// where nvcc and NVRTC may contract a product and a sum into an fma differently.
#include <doctest/doctest.h>

#include <cmath>
#include <complex>
#include <cstdint>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "user_kernel_cases.hpp"

namespace {

using Array = xp::ndarray<>;

// One column: the body's expression of x, y and z (z: small exponents and counts, not negative), and the
// array function of the same arrays.
struct Column {
  std::string expression;
  std::function<Array(const Array&, const Array&, const Array&)> want;
};

// The rounding error a GPU (or libmvec) may differ by, in the output's type.
double gpu_tolerance(xp::dtype out) {
  switch (out) {
    case xp::dtype::float16: return 4 * 0x1p-10;
    case xp::dtype::bfloat16: return 4 * 0x1p-7;
    case xp::dtype::float32:
    case xp::dtype::complex64: return 4 * 0x1p-23;
    case xp::dtype::float64:
    case xp::dtype::complex128: return 4 * 0x1p-52;
    default: return 0;
  }
}

// Whether a column's array function of real floats may be libmvec's on CPUs (cpu/vector_math.hpp).
bool vector_math_on_cpus(const std::string& expression, xp::dtype out) {
  static const std::vector<std::string> functions = {
      "exp",    "exp2",   "expm1", "log",  "log2", "log10",   "log1p",   "sin",     "cos",  "tan",     "arcsin",
      "arccos", "arctan", "sinh",  "cosh", "tanh", "arcsinh", "arccosh", "arctanh", "cbrt", "arctan2", "hypot"};
  if (xp::is_complex(out)) return false;
  for (const std::string& f : functions)
    if (expression.starts_with("xp::" + f + "(")) return true;
  return false;
}

bool same_value(double got, double want, double tolerance) {
  if (std::isnan(want)) return std::isnan(got);
  if (want == 0) return got == 0 && std::signbit(got) == std::signbit(want);
  return got == want || std::fabs(got - want) <= tolerance * std::fabs(want);
}

// The arrays a kernel reads, and those its array functions read (the same, or integers as float64).
struct Inputs {
  Array x, y, z;
};

std::vector<std::complex<double>> as_complex128(const Array& a) {
  return a.astype(xp::dtype::complex128).as<std::complex<double>>().to_vector();
}

// Runs every column in one kernel (outputs in `out`'s dtype) over `in` and checks each against its array
// function of `reference`, cast to that dtype.
void check_columns(const std::string& name, const Inputs& in, const Inputs& reference, xp::dtype out,
                   const std::vector<Column>& columns) {
  CAPTURE(name);
  const std::string in_type(xp::dtype_name(in.x.dtype())), out_type(xp::dtype_name(out));
  const std::string count = std::to_string(columns.size());
  std::string body;
  for (std::size_t k = 0; k < columns.size(); ++k)
    body += "out[i * " + count + " + " + std::to_string(k) + "] = " + columns[k].expression + ";\n";
  const auto& kernel =
      xp::elementwise(in_type + " x, " + in_type + " y, " + in_type + " z", "raw " + out_type + " out", body, name);
  const auto n = static_cast<std::size_t>(in.x.size());
  const Array results = xp::empty({static_cast<std::int64_t>(n * columns.size())}, out, in.x.device());
  kernel(in.x, in.y, in.z, results);
  const auto got = as_complex128(results);
  for (std::size_t k = 0; k < columns.size(); ++k) {
    CAPTURE(columns[k].expression);
    const bool rounded = in.x.device().is_gpu() || vector_math_on_cpus(columns[k].expression, out);
    const double tolerance = rounded ? gpu_tolerance(out) : 0;
    const auto want = as_complex128(columns[k].want(reference.x, reference.y, reference.z).astype(out));
    REQUIRE(want.size() == n);
    for (std::size_t i = 0; i < n; ++i) {
      const std::complex<double> g = got[i * columns.size() + k], w = want[i];
      CAPTURE(i);
      CAPTURE(g);
      CAPTURE(w);
      CHECK((same_value(g.real(), w.real(), tolerance) && same_value(g.imag(), w.imag(), tolerance)));
    }
  }
}

#define XP_UNARY_COLUMN(f)                                                                      \
  Column {                                                                                      \
    "xp::" #f "(x)", [](const Array& x, const Array&, const Array&) { return Array(xp::f(x)); } \
  }
#define XP_COLUMN(expression, array_function)                                                    \
  Column {                                                                                       \
    expression, [](const Array& x, const Array&, const Array&) { return Array(array_function); } \
  }
#define XP_BINARY_COLUMN(f)                                                                             \
  Column {                                                                                              \
    "xp::" #f "(x, y)", [](const Array& x, const Array& y, const Array&) { return Array(xp::f(x, y)); } \
  }

// What every real type has: arithmetic, comparisons, selections and the predicates.
std::vector<Column> real_columns() {
  return {
      XP_UNARY_COLUMN(negative),
      XP_COLUMN("xp::absolute(x)", xp::abs(x)),
      XP_UNARY_COLUMN(square),
      XP_UNARY_COLUMN(sign),
      XP_UNARY_COLUMN(reciprocal),
      XP_UNARY_COLUMN(floor),
      XP_UNARY_COLUMN(ceil),
      XP_UNARY_COLUMN(trunc),
      XP_UNARY_COLUMN(isnan),
      XP_UNARY_COLUMN(isinf),
      XP_UNARY_COLUMN(isfinite),
      XP_UNARY_COLUMN(logical_not),
      XP_BINARY_COLUMN(add),
      XP_BINARY_COLUMN(subtract),
      XP_BINARY_COLUMN(multiply),
      XP_BINARY_COLUMN(floor_divide),
      XP_BINARY_COLUMN(remainder),
      XP_BINARY_COLUMN(fmod),
      XP_BINARY_COLUMN(maximum),
      XP_BINARY_COLUMN(minimum),
      XP_BINARY_COLUMN(fmax),
      XP_BINARY_COLUMN(fmin),
      XP_BINARY_COLUMN(logical_and),
      XP_BINARY_COLUMN(logical_or),
      XP_BINARY_COLUMN(logical_xor),
      XP_BINARY_COLUMN(equal),
      XP_BINARY_COLUMN(less),
      XP_BINARY_COLUMN(greater_equal),
      Column{"xp::power(x, z)", [](const Array& x, const Array&, const Array& z) { return Array(xp::power(x, z)); }},
      Column{"xp::where(xp::less(x, y), x, y)",
             [](const Array& x, const Array& y, const Array&) { return Array(xp::where(xp::less(x, y), x, y)); }},
      Column{"xp::clip(x, z, y)",
             [](const Array& x, const Array& y, const Array& z) { return Array(xp::clip(x, z, y)); }}};
}

// NumPy's floating-point functions, of floats (and of integers as float64 in kernels).
std::vector<Column> float_columns() {
  std::vector<Column> columns = {
      XP_UNARY_COLUMN(exp),
      XP_UNARY_COLUMN(log),
      XP_UNARY_COLUMN(sqrt),
      XP_UNARY_COLUMN(sin),
      XP_UNARY_COLUMN(cos),
      XP_UNARY_COLUMN(tan),
      XP_UNARY_COLUMN(tanh),
      XP_UNARY_COLUMN(exp2),
      XP_UNARY_COLUMN(log2),
      XP_UNARY_COLUMN(log10),
      XP_UNARY_COLUMN(log1p),
      XP_UNARY_COLUMN(expm1),
      XP_UNARY_COLUMN(arcsin),
      XP_UNARY_COLUMN(arccos),
      XP_UNARY_COLUMN(arctan),
      XP_UNARY_COLUMN(sinh),
      XP_UNARY_COLUMN(cosh),
      XP_UNARY_COLUMN(arcsinh),
      XP_UNARY_COLUMN(arccosh),
      XP_UNARY_COLUMN(arctanh),
      XP_UNARY_COLUMN(cbrt),
      XP_UNARY_COLUMN(deg2rad),
      XP_UNARY_COLUMN(rad2deg),
      XP_UNARY_COLUMN(rint),
      XP_UNARY_COLUMN(signbit),
      XP_BINARY_COLUMN(divide),
      XP_BINARY_COLUMN(arctan2),
      XP_BINARY_COLUMN(hypot),
      XP_BINARY_COLUMN(copysign),
      XP_BINARY_COLUMN(nextafter),
      XP_BINARY_COLUMN(heaviside),
      Column{"xp::ldexp(x, 3)", [](const Array& x, const Array&, const Array&) { return Array(xp::ldexp(x, 3)); }},
      Column{"[&] { int e; return xp::frexp(x, &e); }()",
             [](const Array& x, const Array&, const Array&) { return xp::frexp(x).first; }},
      Column{"[&] { int e; xp::frexp(x, &e); return e; }()",
             [](const Array& x, const Array&, const Array&) { return xp::frexp(x).second; }},
      Column{"[&] { double whole; return xp::modf(x, &whole); }()",
             [](const Array& x, const Array&, const Array&) { return xp::modf(x).first; }},
      Column{"[&] { double whole; xp::modf(x, &whole); return whole; }()",
             [](const Array& x, const Array&, const Array&) { return xp::modf(x).second; }}};
  return columns;
}

// Integers and bool have these too (bool: the bitwise ones).
std::vector<Column> integer_columns() {
  return {XP_BINARY_COLUMN(bitwise_and),
          XP_BINARY_COLUMN(bitwise_or),
          XP_BINARY_COLUMN(bitwise_xor),
          XP_UNARY_COLUMN(invert),
          XP_BINARY_COLUMN(left_shift),
          XP_BINARY_COLUMN(right_shift),
          XP_BINARY_COLUMN(gcd),
          XP_BINARY_COLUMN(lcm),
          Column{"[&] { long long r; xp::divmod(x, y, &r); return r; }()",
                 [](const Array& x, const Array& y, const Array&) { return xp::divmod(x, y).second; }},
          Column{"[&] { long long r; return xp::divmod(x, y, &r); }()",
                 [](const Array& x, const Array& y, const Array&) { return xp::divmod(x, y).first; }}};
}

std::vector<Column> bool_columns() {
  return {XP_UNARY_COLUMN(logical_not),  XP_BINARY_COLUMN(logical_and), XP_BINARY_COLUMN(logical_or),
          XP_BINARY_COLUMN(logical_xor), XP_BINARY_COLUMN(bitwise_and), XP_BINARY_COLUMN(bitwise_or),
          XP_BINARY_COLUMN(bitwise_xor), XP_UNARY_COLUMN(invert),       XP_BINARY_COLUMN(add),
          XP_BINARY_COLUMN(multiply),    XP_BINARY_COLUMN(maximum),     XP_BINARY_COLUMN(minimum),
          XP_BINARY_COLUMN(equal),       XP_BINARY_COLUMN(less),        XP_UNARY_COLUMN(isnan),
          XP_UNARY_COLUMN(isfinite)};
}

// Complex numbers: everything NumPy defines for them.
std::vector<Column> complex_columns() {
  return {XP_UNARY_COLUMN(negative),  XP_COLUMN("xp::absolute(x)", xp::abs(x)),
          XP_UNARY_COLUMN(square),    XP_UNARY_COLUMN(reciprocal),
          XP_UNARY_COLUMN(sign),      XP_UNARY_COLUMN(conj),
          XP_UNARY_COLUMN(real),      XP_UNARY_COLUMN(imag),
          XP_UNARY_COLUMN(angle),     XP_UNARY_COLUMN(isnan),
          XP_UNARY_COLUMN(isinf),     XP_UNARY_COLUMN(isfinite),
          XP_UNARY_COLUMN(exp),       XP_UNARY_COLUMN(log),
          XP_UNARY_COLUMN(sqrt),      XP_UNARY_COLUMN(sin),
          XP_UNARY_COLUMN(cos),       XP_UNARY_COLUMN(tan),
          XP_UNARY_COLUMN(tanh),      XP_UNARY_COLUMN(exp2),
          XP_UNARY_COLUMN(log2),      XP_UNARY_COLUMN(log10),
          XP_UNARY_COLUMN(log1p),     XP_UNARY_COLUMN(expm1),
          XP_UNARY_COLUMN(arcsin),    XP_UNARY_COLUMN(arccos),
          XP_UNARY_COLUMN(arctan),    XP_UNARY_COLUMN(sinh),
          XP_UNARY_COLUMN(cosh),      XP_UNARY_COLUMN(arcsinh),
          XP_UNARY_COLUMN(arccosh),   XP_UNARY_COLUMN(arctanh),
          XP_UNARY_COLUMN(rint),      XP_BINARY_COLUMN(add),
          XP_BINARY_COLUMN(subtract), XP_BINARY_COLUMN(multiply),
          XP_BINARY_COLUMN(divide),   XP_BINARY_COLUMN(power),
          XP_BINARY_COLUMN(maximum),  XP_BINARY_COLUMN(minimum),
          XP_BINARY_COLUMN(fmax),     XP_BINARY_COLUMN(fmin),
          XP_BINARY_COLUMN(equal),    XP_BINARY_COLUMN(less)};
}

#undef XP_UNARY_COLUMN
#undef XP_COLUMN
#undef XP_BINARY_COLUMN

constexpr double kInf = std::numeric_limits<double>::infinity(), kNaN = std::numeric_limits<double>::quiet_NaN();

Inputs float_inputs(xp::dtype type, xp::Device device) {
  const std::vector<double> x{-2.5, -1, -0.5, -0.0, 0, 0.5, 1, 1.5, 2.5, 3, 7.25, 1e-3, 100, kInf, -kInf, kNaN};
  const std::vector<double> y{2, -3, 0.5, 1, -0.0, 3, -2, 4, 1.5, 2, -0.75, kInf, -7, 2, 3, 1};
  const std::vector<double> z{0, 1, 2, 3, 0, 1, 2, 3, 4, 1, 2, 0, 3, 2, 1, 0};
  const auto make = [&](const std::vector<double>& v) { return Array(xp::array<double>(v, device)).astype(type); };
  return {make(x), make(y), make(z)};
}

Inputs integer_inputs(xp::dtype type, xp::Device device) {
  const std::vector<std::int64_t> x{-100, -7, -3, -1, 0, 1, 2, 5, 12, 100, 7, -8};
  const std::vector<std::int64_t> y{3, -2, 0, 5, 7, -1, 2, 3, 0, 1, 64, 9};
  const std::vector<std::int64_t> z{0, 1, 2, 3, 0, 1, 2, 3, 4, 1, 2, 0};
  const auto make = [&](const std::vector<std::int64_t>& v) {
    return Array(xp::array<std::int64_t>(v, device)).astype(type);
  };
  return {make(x), make(y), make(z)};
}

Inputs complex_inputs(xp::dtype type, xp::Device device) {
  using C = std::complex<double>;
  const std::vector<C> x{{1, 2}, {-0.5, 3}, {4, -1}, {0, 0}, {1e-3, -2e-3}, {-2, 0}, {0.75, 0.5}, {kInf, 1}, {kNaN, 0}};
  const std::vector<C> y{{2, -1}, {0.25, 0.5}, {-3, 2}, {1, 1}, {2, 0}, {0, 0}, {-1, 0}, {1, 0}, {1, 1}};
  const auto make = [&](const std::vector<C>& v) { return Array(xp::array<C>(v, device)).astype(type); };
  return {make(x), make(y), make(y)};
}

Inputs as_float64(const Inputs& in) {
  return {in.x.astype(xp::dtype::float64), in.y.astype(xp::dtype::float64), in.z.astype(xp::dtype::float64)};
}

template <class... Lists>
std::vector<Column> joined(const Lists&... lists) {
  std::vector<Column> all;
  (all.insert(all.end(), lists.begin(), lists.end()), ...);
  return all;
}

}  // namespace

void run_jit_ufunc_cases(xp::Device device) {
  for (const xp::dtype type : {xp::dtype::float16, xp::dtype::bfloat16, xp::dtype::float32, xp::dtype::float64}) {
    const Inputs in = float_inputs(type, device);
    check_columns("jit_ufuncs_of_floats", in, in, type, joined(real_columns(), float_columns()));
  }
  // A small signed type (C promotes it to int), the common one, and an unsigned 64-bit one (as double: rounded).
  for (const xp::dtype type : {xp::dtype::int8, xp::dtype::int32, xp::dtype::uint64}) {
    const Inputs in = integer_inputs(type, device);
    check_columns("jit_ufuncs_of_integers", in, in, type, joined(real_columns(), integer_columns()));
    check_columns("jit_float_ufuncs_of_integers", in, as_float64(in), xp::dtype::float64, float_columns());
  }
  const Inputs integers = integer_inputs(xp::dtype::int8, device);
  const Inputs bools{integers.x.astype(xp::dtype::bool_), integers.y.astype(xp::dtype::bool_),
                     integers.z.astype(xp::dtype::bool_)};
  check_columns("jit_ufuncs_of_bool", bools, bools, xp::dtype::bool_, bool_columns());
  for (const xp::dtype type : {xp::dtype::complex64, xp::dtype::complex128}) {
    const Inputs in = complex_inputs(type, device);
    check_columns("jit_ufuncs_of_complex", in, in, type, complex_columns());
  }
}
