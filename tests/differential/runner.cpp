// The C++ half of the NumPy differential test: reads the cases generate.py wrote, computes each
// through xparray's public API on every device present, and compares with NumPy's answers.
//
//   xp_differential cases.txt [--show N]
//
// Comparisons (documented in the README): "exact" — the same bits, any NaN equal to any NaN;
// "signed-zero" — the same, except that +0 and -0 are equal (max/min/clip of equal zeros: NumPy's
// choice between them depends on its SIMD path); "bound" — |got - expected| <= the case's bound per
// element (transcendental functions; float sums and moments, whose order of additions differs),
// with infinities and NaNs exactly where NumPy has them.
#include <cmath>
#include <complex>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include "xp/xp.hpp"
#if XP_DIFFERENTIAL_FFT
#include "xp/fft.hpp"
#endif

namespace {

using Array = xp::ndarray<>;
using Value = std::variant<Array, bool, std::int64_t, float, double>;

// ---- Reading ----

std::vector<unsigned char> from_hex(const std::string& text) {
  std::vector<unsigned char> bytes;
  if (text == "-") return bytes;
  if (text.size() % 2) throw std::runtime_error("odd hex length");
  bytes.reserve(text.size() / 2);
  for (std::size_t i = 0; i < text.size(); i += 2)
    bytes.push_back(static_cast<unsigned char>(std::stoi(text.substr(i, 2), nullptr, 16)));
  return bytes;
}

// The dtype NumPy names `name` ("float32"), as xp::dtype_name prints it.
xp::dtype dtype_named(const std::string& name) {
  for (int k = 0; k < xp::kNumDtypes; ++k)
    if (xp::dtype_name(static_cast<xp::dtype>(k)) == name) return static_cast<xp::dtype>(k);
  throw std::runtime_error("unknown dtype " + name);
}

class Tokens {
 public:
  explicit Tokens(const std::string& line) : in_(line) {}
  std::string word() {
    std::string w;
    if (!(in_ >> w)) throw std::runtime_error("the case file ends a line too early");
    return w;
  }
  std::int64_t integer() { return std::stoll(word()); }

 private:
  std::istringstream in_;
};

xp::Shape shape_from(Tokens& t, int ndim) {
  xp::Shape shape;
  for (int i = 0; i < ndim; ++i) shape.push_back(t.integer());
  return shape;
}

// Index `position` along `axis`, every axis before it whole: a(:, :, position).
template <std::size_t... Before>
Array index_at(const Array& a, const xp::Index& position, std::index_sequence<Before...>) {
  return a(((void)Before, xp::Index(xp::slice()))..., position);
}
Array index_along(const Array& a, int axis, const xp::Index& position) {
  switch (axis) {
    case 0: return index_at(a, position, std::make_index_sequence<0>{});
    case 1: return index_at(a, position, std::make_index_sequence<1>{});
    case 2: return index_at(a, position, std::make_index_sequence<2>{});
    case 3: return index_at(a, position, std::make_index_sequence<3>{});
    case 4: return index_at(a, position, std::make_index_sequence<4>{});
    case 5: return index_at(a, position, std::make_index_sequence<5>{});
    case 6: return index_at(a, position, std::make_index_sequence<6>{});
    default: throw std::runtime_error("index axis past 6");
  }
}

// "NVIEWS VIEW...": views of `a`, in order.
Array read_views(Tokens& t, Array a) {
  const std::int64_t views = t.integer();
  for (std::int64_t v = 0; v < views; ++v) {
    const std::string kind = t.word();
    if (kind == "T") {
      std::vector<int> perm(static_cast<std::size_t>(a.ndim()));
      for (int& p : perm) p = static_cast<int>(t.integer());
      a = xp::transpose(a, perm);
    } else if (kind == "S") {
      const int axis = static_cast<int>(t.integer());
      const std::int64_t start = t.integer(), stop = t.integer(), step = t.integer();
      a = index_along(a, axis, xp::slice(start, stop, step));
    } else if (kind == "I") {
      const int axis = static_cast<int>(t.integer());
      a = index_along(a, axis, t.integer());
    } else if (kind == "B") {
      a = a.broadcast_to(shape_from(t, static_cast<int>(t.integer())));
    } else if (kind == "R") {
      a = xp::reshape(a, shape_from(t, static_cast<int>(t.integer())));
    } else {
      throw std::runtime_error("unknown view " + kind);
    }
  }
  return a;
}

struct ReadArray {
  Array base, view;
};

// "array DTYPE NDIM SHAPE... HEX NVIEWS VIEW...": the base array on `device`, then its views.
ReadArray read_array(Tokens& t, xp::Device device) {
  const xp::dtype type = dtype_named(t.word());
  const xp::Shape base = shape_from(t, static_cast<int>(t.integer()));
  const std::vector<unsigned char> bytes = from_hex(t.word());
  Array a = xp::visit_dtype(type, [&]<class T>(std::type_identity<T>) -> Array {
    std::vector<T> values(static_cast<std::size_t>(xp::numel(base)));
    if constexpr (std::is_same_v<T, bool>) {
      for (std::size_t i = 0; i < values.size(); ++i) values[i] = bytes[i] != 0;
    } else if (!bytes.empty()) {  // an empty vector's data() may be null, which memcpy must not get
      std::memcpy(static_cast<void*>(values.data()), bytes.data(), bytes.size());
    }
    return xp::array<T>(values, base, device);
  });
  return {a, read_views(t, a)};
}

// An operand, and the base array it is a view of (none for scalars).
Value read_operand(Tokens& t, xp::Device device, std::optional<Array>& base) {
  const std::string what = t.word();
  if (what == "array") {
    ReadArray read = read_array(t, device);
    base = read.base;
    return read.view;
  }
  const std::string kind = t.word();
  const std::string text = t.word();
  if (kind == "bool") return text == "1";
  if (kind == "int") return static_cast<std::int64_t>(std::stoll(text));
  if (kind == "float") return std::stof(text);
  return std::stod(text);
}

// ---- Calling ----

template <class V>
constexpr bool is_array = std::is_same_v<std::decay_t<V>, Array>;

using Call = std::function<Array(const std::vector<Value>&, const std::optional<Array>&)>;

#define XP_UNARY_CALL(name)                                                           \
  {#name, [](const std::vector<Value>& v, const std::optional<Array>& out) -> Array { \
     const Array& a = std::get<Array>(v[0]);                                          \
     if (out) return xp::name(a, *out);                                               \
     return xp::name(a);                                                              \
   }}
#define XP_BINARY_CALL(name)                                                          \
  {#name, [](const std::vector<Value>& v, const std::optional<Array>& out) -> Array { \
     return std::visit(                                                               \
         [&](const auto& a, const auto& b) -> Array {                                 \
           if constexpr (!is_array<decltype(a)> && !is_array<decltype(b)>) {          \
             throw std::runtime_error("a case without arrays");                       \
           } else {                                                                   \
             if (out) return xp::name(a, b, *out);                                    \
             return xp::name(a, b);                                                   \
           }                                                                          \
         },                                                                           \
         v[0], v[1]);                                                                 \
   }}
// One result of a function of one array with no out= form (frexp's mantissa, around to 2 decimals...).
#define XP_PART_CALL(name, result)                                                \
  {#name, [](const std::vector<Value>& v, const std::optional<Array>&) -> Array { \
     const Array& a = std::get<Array>(v[0]);                                      \
     return result;                                                               \
   }}
#define XP_TERNARY_CALL(name, first_must_be_array)                                                       \
  {#name, [](const std::vector<Value>& v, const std::optional<Array>&) -> Array {                        \
     return std::visit(                                                                                  \
         [&](const auto& a, const auto& b, const auto& c) -> Array {                                     \
           if constexpr ((first_must_be_array && !is_array<decltype(a)>) ||                              \
                         (!is_array<decltype(a)> && !is_array<decltype(b)> && !is_array<decltype(c)>)) { \
             throw std::runtime_error("a case without the arrays " #name " needs");                      \
           } else {                                                                                      \
             return xp::name(a, b, c);                                                                   \
           }                                                                                             \
         },                                                                                              \
         v[0], v[1], v[2]);                                                                              \
   }}

const std::map<std::string, Call>& elementwise_calls() {
  static const std::map<std::string, Call> calls{XP_BINARY_CALL(add),
                                                 XP_BINARY_CALL(subtract),
                                                 XP_BINARY_CALL(multiply),
                                                 XP_BINARY_CALL(divide),
                                                 XP_BINARY_CALL(mod),
                                                 XP_BINARY_CALL(power),
                                                 XP_BINARY_CALL(maximum),
                                                 XP_BINARY_CALL(minimum),
                                                 XP_BINARY_CALL(equal),
                                                 XP_BINARY_CALL(not_equal),
                                                 XP_BINARY_CALL(less),
                                                 XP_BINARY_CALL(less_equal),
                                                 XP_BINARY_CALL(greater),
                                                 XP_BINARY_CALL(greater_equal),
                                                 XP_BINARY_CALL(logical_and),
                                                 XP_BINARY_CALL(logical_or),
                                                 XP_BINARY_CALL(bitwise_and),
                                                 XP_BINARY_CALL(bitwise_or),
                                                 XP_BINARY_CALL(bitwise_xor),
                                                 XP_BINARY_CALL(left_shift),
                                                 XP_BINARY_CALL(right_shift),
                                                 XP_BINARY_CALL(floor_divide),
                                                 XP_BINARY_CALL(fmod),
                                                 XP_BINARY_CALL(fmax),
                                                 XP_BINARY_CALL(fmin),
                                                 XP_BINARY_CALL(logical_xor),
                                                 XP_BINARY_CALL(gcd),
                                                 XP_BINARY_CALL(lcm),
                                                 XP_BINARY_CALL(arctan2),
                                                 XP_BINARY_CALL(hypot),
                                                 XP_BINARY_CALL(copysign),
                                                 XP_BINARY_CALL(nextafter),
                                                 XP_BINARY_CALL(heaviside),
                                                 XP_BINARY_CALL(ldexp),
                                                 XP_PART_CALL(frexp_mantissa, xp::frexp(a).first),
                                                 XP_PART_CALL(frexp_exponent, xp::frexp(a).second),
                                                 XP_PART_CALL(modf_fraction, xp::modf(a).first),
                                                 XP_PART_CALL(modf_integral, xp::modf(a).second),
                                                 XP_PART_CALL(around, xp::around(a)),
                                                 XP_PART_CALL(around_2, xp::around(a, 2)),
                                                 XP_PART_CALL(around_m1, xp::around(a, -1)),
                                                 XP_UNARY_CALL(invert),
                                                 XP_UNARY_CALL(negative),
                                                 XP_UNARY_CALL(abs),
                                                 XP_UNARY_CALL(exp),
                                                 XP_UNARY_CALL(log),
                                                 XP_UNARY_CALL(log1p),
                                                 XP_UNARY_CALL(expm1),
                                                 XP_UNARY_CALL(sqrt),
                                                 XP_UNARY_CALL(sin),
                                                 XP_UNARY_CALL(cos),
                                                 XP_UNARY_CALL(tan),
                                                 XP_UNARY_CALL(tanh),
                                                 XP_UNARY_CALL(sigmoid),
                                                 XP_UNARY_CALL(logical_not),
                                                 XP_UNARY_CALL(conj),
                                                 XP_UNARY_CALL(real),
                                                 XP_UNARY_CALL(imag),
                                                 XP_UNARY_CALL(angle),
                                                 XP_UNARY_CALL(floor),
                                                 XP_UNARY_CALL(ceil),
                                                 XP_UNARY_CALL(trunc),
                                                 XP_UNARY_CALL(square),
                                                 XP_UNARY_CALL(reciprocal),
                                                 XP_UNARY_CALL(sign),
                                                 XP_UNARY_CALL(exp2),
                                                 XP_UNARY_CALL(log2),
                                                 XP_UNARY_CALL(log10),
                                                 XP_UNARY_CALL(arcsin),
                                                 XP_UNARY_CALL(arccos),
                                                 XP_UNARY_CALL(arctan),
                                                 XP_UNARY_CALL(sinh),
                                                 XP_UNARY_CALL(cosh),
                                                 XP_UNARY_CALL(arcsinh),
                                                 XP_UNARY_CALL(arccosh),
                                                 XP_UNARY_CALL(arctanh),
                                                 XP_UNARY_CALL(cbrt),
                                                 XP_UNARY_CALL(deg2rad),
                                                 XP_UNARY_CALL(rad2deg),
                                                 XP_UNARY_CALL(rint),
                                                 XP_UNARY_CALL(isnan),
                                                 XP_UNARY_CALL(isinf),
                                                 XP_UNARY_CALL(isfinite),
                                                 XP_UNARY_CALL(signbit),
                                                 XP_TERNARY_CALL(where, false),
                                                 XP_TERNARY_CALL(clip, true)};
  return calls;
}

using ReductionCall = std::function<Array(const Array&, const xp::Axes&, bool)>;
#define XP_REDUCTION_CALL(name) \
  {#name, [](const Array& a, const xp::Axes& axes, bool keepdims) { return xp::name(a, axes, keepdims); }}

const std::map<std::string, ReductionCall>& reduction_calls() {
  static const std::map<std::string, ReductionCall> calls{
      XP_REDUCTION_CALL(sum),    XP_REDUCTION_CALL(prod),      XP_REDUCTION_CALL(mean),      XP_REDUCTION_CALL(max),
      XP_REDUCTION_CALL(min),    XP_REDUCTION_CALL(argmax),    XP_REDUCTION_CALL(argmin),    XP_REDUCTION_CALL(all),
      XP_REDUCTION_CALL(any),    XP_REDUCTION_CALL(var),       XP_REDUCTION_CALL(std),       XP_REDUCTION_CALL(norm),
      XP_REDUCTION_CALL(nansum), XP_REDUCTION_CALL(nanprod),   XP_REDUCTION_CALL(nanmean),   XP_REDUCTION_CALL(nanmax),
      XP_REDUCTION_CALL(nanmin), XP_REDUCTION_CALL(nanargmax), XP_REDUCTION_CALL(nanargmin), XP_REDUCTION_CALL(nanvar),
      XP_REDUCTION_CALL(nanstd), XP_REDUCTION_CALL(ptp)};
  return calls;
}

// The dtype and out forms: name(a, axes, keepdims, dtype), name(a, axes, keepdims, [dtype,] out); the
// moments with ddof 0 before the dtype.
using ReductionIntoCall =
    std::function<Array(const Array&, const xp::Axes&, bool, std::optional<xp::dtype>, const std::optional<Array>&)>;
#define XP_REDUCTION_INTO_CALL(name)                                                      \
  {#name,                                                                                 \
   [](const Array& a, const xp::Axes& axes, bool keepdims, std::optional<xp::dtype> type, \
      const std::optional<Array>& out) -> Array {                                         \
     if (type || !out) throw std::runtime_error(#name " takes an out and no dtype");      \
     return xp::name(a, axes, keepdims, *out);                                            \
   }}
#define XP_REDUCTION_IN_DTYPE_CALL(name)                                                               \
  {#name,                                                                                              \
   [](const Array& a, const xp::Axes& axes, bool keepdims, std::optional<xp::dtype> type,              \
      const std::optional<Array>& out) -> Array {                                                      \
     return out ? xp::name(a, axes, keepdims, type, *out) : xp::name(a, axes, keepdims, type.value()); \
   }}
#define XP_MOMENT_IN_DTYPE_CALL(name)                                                                        \
  {#name,                                                                                                    \
   [](const Array& a, const xp::Axes& axes, bool keepdims, std::optional<xp::dtype> type,                    \
      const std::optional<Array>& out) -> Array {                                                            \
     return out ? xp::name(a, axes, keepdims, 0, type, *out) : xp::name(a, axes, keepdims, 0, type.value()); \
   }}

const std::map<std::string, ReductionIntoCall>& reduction_into_calls() {
  static const std::map<std::string, ReductionIntoCall> calls{
      XP_REDUCTION_IN_DTYPE_CALL(sum),    XP_REDUCTION_IN_DTYPE_CALL(prod),    XP_REDUCTION_IN_DTYPE_CALL(mean),
      XP_MOMENT_IN_DTYPE_CALL(var),       XP_MOMENT_IN_DTYPE_CALL(std),        XP_REDUCTION_INTO_CALL(max),
      XP_REDUCTION_INTO_CALL(min),        XP_REDUCTION_INTO_CALL(argmax),      XP_REDUCTION_INTO_CALL(argmin),
      XP_REDUCTION_INTO_CALL(all),        XP_REDUCTION_INTO_CALL(any),         XP_REDUCTION_INTO_CALL(norm),
      XP_REDUCTION_IN_DTYPE_CALL(nansum), XP_REDUCTION_IN_DTYPE_CALL(nanprod), XP_REDUCTION_IN_DTYPE_CALL(nanmean),
      XP_MOMENT_IN_DTYPE_CALL(nanvar),    XP_MOMENT_IN_DTYPE_CALL(nanstd),     XP_REDUCTION_INTO_CALL(nanmax),
      XP_REDUCTION_INTO_CALL(nanmin),     XP_REDUCTION_INTO_CALL(nanargmax),   XP_REDUCTION_INTO_CALL(nanargmin),
      XP_REDUCTION_INTO_CALL(ptp)};
  return calls;
}

// ---- Comparing ----

// Operations along one axis and the statistics: the operands, the "along" line's axis (nullopt:
// "none") and number (diff's order, searchsorted's and digitize's right, bincount's minlength,
// histogram's bins, quantile's method), the range of a histogram ("lo:hi" in the axis' place), and
// the "axes" line's axes for the order statistics.
struct Along {
  std::optional<int> axis;
  int n = 0;
  std::optional<std::pair<double, double>> range;
  xp::Axes axes = std::nullopt;
  bool keepdims = false;
  // The creation routines' arguments: the "dtype", "shape" and "numbers" lines, and the device.
  std::optional<xp::dtype> type;
  std::optional<xp::Shape> shape;
  std::vector<double> numbers;
  xp::Device device = xp::cpu(0);
};
using AlongCall = std::function<Array(const std::vector<Array>&, const Along&)>;

const std::vector<double> kQuantiles{0.0, 0.3, 0.5, 0.77, 1.0};  // generate.py's QUANTILES
// linalg_cases.py's NORM_ORDERS.
const std::vector<xp::linalg::NormOrder> kNormOrders{{}, "fro", "nuc", 1, -1, 2, -2, INFINITY, -INFINITY};
// manipulation_cases.py's EINSUM_SUBSCRIPTS.
const std::vector<std::string> kEinsumSubscripts{
    "ij,jk->ik", "bij,bjk->bik",       "ii->i",          "ii",     "ij->ji", "ij,ij->i",       "i,j",
    "...i,...i", "...ij,...jk->...ik", "ijk,ikl,lm->jm", "iij,jk", "ij->",   "i...,i...->...", "ab,bc,cd"};
const std::vector<std::string> kMethods{"linear",
                                        "lower",
                                        "higher",
                                        "nearest",
                                        "midpoint",
                                        "inverted_cdf",
                                        "averaged_inverted_cdf",
                                        "closest_observation",
                                        "interpolated_inverted_cdf",
                                        "hazen",
                                        "weibull",
                                        "median_unbiased",
                                        "normal_unbiased"};

Array unique_part(const std::string& part, const Array& a, const Along& g) {
  const auto u = xp::unique(a, {.return_index = true, .return_inverse = true, .return_counts = true, .axis = g.axis});
  if (part == "values") return u.values;
  return part == "index" ? Array(u.index) : part == "inverse" ? Array(u.inverse) : Array(u.counts);
}

Array percentiles(const Array& a, const Along& g) {
  std::vector<double> q;
  for (double v : kQuantiles) q.push_back(v * 100);
  return xp::percentile(a, q, g.axes, kMethods.at(static_cast<std::size_t>(g.n)), g.keepdims);
}

// The along line's axis as Axes: every axis for "none".
xp::Axes axes_of(const Along& g) { return g.axis ? xp::Axes(*g.axis) : xp::Axes(std::nullopt); }

// creation_cases.py's wrap: the memory of a contiguous operand from element n on, as the shape line's shape
// with the numbers line's strides; the deleter holds the operand, so the memory outlives the view.
Array wrapped(const Array& memory, const Along& g) {
  xp::Strides strides;
  for (const double stride : g.numbers) strides.push_back(static_cast<std::int64_t>(stride));
  std::byte* start = static_cast<std::byte*>(memory.raw_data()) + g.n * static_cast<std::int64_t>(memory.itemsize());
  auto keeper = std::make_shared<Array>(memory);
  return xp::wrap(start, g.shape.value(), strides, memory.dtype(), g.device,
                  [keeper](void*) mutable { keeper.reset(); });
}

// The creation routines of creation_cases.py: numbers are start, stop, endpoint (and base, or the fill value).
Array created(const std::string& op, const std::vector<Array>& a, const Along& g) {
  const std::vector<double>& v = g.numbers;
  if (op == "zeros_like") return xp::zeros_like(a[0], g.type, g.shape);
  if (op == "ones_like") return xp::ones_like(a[0], g.type, g.shape);
  if (op == "full_like") return xp::full_like(a[0], v.at(0), g.type, g.shape);
  if (op == "logspace") return xp::logspace(v.at(0), v.at(1), g.n, v.at(2) != 0, v.at(3), g.type.value(), g.device);
  if (op == "geomspace") return xp::geomspace(v.at(0), v.at(1), g.n, v.at(2) != 0, g.type.value(), g.device);
  if (op == "meshgrid") return xp::meshgrid(a, g.n ? "ij" : "xy").at(static_cast<std::size_t>(*g.axis));
  if (op == "indices") return xp::indices(g.shape.value(), g.type.value(), g.device);
  if (op == "wrap") return wrapped(a[0], g);
  throw std::runtime_error("unknown creation routine " + op);
}
const std::set<std::string> kCreation{"zeros_like", "ones_like", "full_like", "logspace",
                                      "geomspace",  "meshgrid",  "indices",   "wrap"};

// random_cases.py's Generator calls: the numbers line's parameters, the shape line's size, the dtype
// line's real dtype.
Array drawn(const std::string& op, const Along& g) {
  auto rng = xp::random::default_rng(0);
  const std::vector<double>& v = g.numbers;
  const xp::Shape& size = g.shape.value();
  const bool single = g.type == xp::dtype::float32;
  const auto real = [&](auto draw) { return single ? Array(draw(float{})) : Array(draw(double{})); };
  if (op == "rng_uniform") return real([&]<class T>(T) { return rng.uniform<T>(v.at(0), v.at(1), size, g.device); });
  if (op == "rng_normal") return real([&]<class T>(T) { return rng.normal<T>(v.at(0), v.at(1), size, g.device); });
  if (op == "rng_exponential") return real([&]<class T>(T) { return rng.exponential<T>(v.at(0), size, g.device); });
  if (op == "rng_gamma") return real([&]<class T>(T) { return rng.gamma<T>(v.at(0), v.at(1), size, g.device); });
  const auto integer = [](double x) { return static_cast<std::int64_t>(x); };
  if (op == "rng_binomial") return rng.binomial(integer(v.at(0)), v.at(1), size, g.device);
  if (op == "rng_poisson") return rng.poisson(v.at(0), size, g.device);
  if (op == "rng_geometric") return rng.geometric(v.at(0), size, g.device);
  if (op == "rng_integers") return rng.integers(integer(v.at(0)), integer(v.at(1)), size, false, g.device);
  std::vector<double> p(static_cast<std::size_t>(v.at(0)), 0.0);
  p.at(static_cast<std::size_t>(v.at(1))) = v.at(2) != 0 ? 1.0 : 0.5;
  return rng.choice(integer(v.at(0)), size, true, p, g.device);
}
const std::set<std::string> kRandom{"rng_uniform", "rng_normal",    "rng_exponential", "rng_gamma", "rng_binomial",
                                    "rng_poisson", "rng_geometric", "rng_integers",    "rng_choice"};

// manipulation_cases.py's pad widths: n on every side, or (n, 1) for every axis when the line has an axis.
xp::PadWidths pad_widths(const Along& g) { return g.axis ? xp::PadWidths({g.n, 1}) : xp::PadWidths(g.n); }

const std::map<std::string, AlongCall>& along_calls() {
  using V = std::vector<Array>;
  static const std::map<std::string, AlongCall> calls{
      {"sort", [](const V& a, const Along& g) { return xp::sort(a[0], g.axis); }},
      {"average",
       [](const V& a, const Along& g) {
         return xp::average(a[0], g.axes, a.size() > 1 ? std::optional(a[1]) : std::nullopt, g.keepdims);
       }},
      {"argsort", [](const V& a, const Along& g) { return Array(xp::argsort(a[0], g.axis)); }},
      {"cumsum", [](const V& a, const Along& g) { return xp::cumsum(a[0], g.axis); }},
      {"cumprod", [](const V& a, const Along& g) { return xp::cumprod(a[0], g.axis); }},
      {"nancumsum", [](const V& a, const Along& g) { return xp::nancumsum(a[0], g.axis); }},
      {"nancumprod", [](const V& a, const Along& g) { return xp::nancumprod(a[0], g.axis); }},
      {"diff", [](const V& a, const Along& g) { return xp::diff(a[0], g.n, g.axis.value_or(-1)); }},
      {"searchsorted",
       [](const V& a, const Along& g) { return Array(xp::searchsorted(a[0], a[1], g.n ? "right" : "left")); }},
      {"digitize", [](const V& a, const Along& g) { return Array(xp::digitize(a[0], a[1], g.n != 0)); }},
      {"lexsort", [](const V& a, const Along& g) { return Array(xp::lexsort(a, g.axis.value_or(-1))); }},
      {"unique_values", [](const V& a, const Along& g) { return unique_part("values", a[0], g); }},
      {"unique_index", [](const V& a, const Along& g) { return unique_part("index", a[0], g); }},
      {"unique_inverse", [](const V& a, const Along& g) { return unique_part("inverse", a[0], g); }},
      {"unique_counts", [](const V& a, const Along& g) { return unique_part("counts", a[0], g); }},
      {"count_nonzero",
       [](const V& a, const Along& g) {
         return Array(xp::count_nonzero(a[0], g.axis ? xp::Axes(*g.axis) : xp::Axes(std::nullopt)));
       }},
      {"bincount", [](const V& a, const Along& g) { return Array(xp::bincount(a[0], g.n)); }},
      {"bincount_weights", [](const V& a, const Along& g) { return Array(xp::bincount(a[0], a[1], g.n)); }},
      {"histogram", [](const V& a, const Along& g) { return Array(xp::histogram(a[0], g.n, g.range).hist); }},
      {"histogram_edges", [](const V& a, const Along& g) { return Array(xp::histogram(a[0], g.n, g.range).edges); }},
      {"median", [](const V& a, const Along& g) { return xp::median(a[0], g.axes, g.keepdims); }},
      {"quantile",
       [](const V& a, const Along& g) {
         return xp::quantile(a[0], kQuantiles, g.axes, kMethods.at(static_cast<std::size_t>(g.n)), g.keepdims);
       }},
      {"percentile", [](const V& a, const Along& g) { return percentiles(a[0], g); }},
      {"ravel", [](const V& a, const Along&) { return xp::ravel(a[0]); }},
      {"flatten", [](const V& a, const Along&) { return xp::flatten(a[0]); }},
      {"ascontiguousarray", [](const V& a, const Along&) { return xp::ascontiguousarray(a[0]); }},
      {"swapaxes", [](const V& a, const Along& g) { return xp::swapaxes(a[0], *g.axis, g.n); }},
      {"moveaxis", [](const V& a, const Along& g) { return xp::moveaxis(a[0], *g.axis, g.n); }},
      {"flip", [](const V& a, const Along& g) { return xp::flip(a[0], axes_of(g)); }},
      {"fliplr", [](const V& a, const Along&) { return xp::fliplr(a[0]); }},
      {"flipud", [](const V& a, const Along&) { return xp::flipud(a[0]); }},
      {"roll", [](const V& a, const Along& g) { return xp::roll(a[0], std::vector<std::int64_t>{g.n}, axes_of(g)); }},
      {"rot90", [](const V& a, const Along& g) { return xp::rot90(a[0], g.n); }},
      {"tile",
       [](const V& a, const Along& g) {
         return xp::tile(a[0], g.axis ? std::vector<std::int64_t>{g.n, 2} : std::vector<std::int64_t>{g.n});
       }},
      {"repeat", [](const V& a, const Along& g) { return xp::repeat(a[0], g.n, g.axis); }},
      {"array_split", [](const V& a, const Along& g) { return xp::array_split(a[0], g.n, g.axis.value_or(0)).back(); }},
      {"tril", [](const V& a, const Along& g) { return xp::tril(a[0], g.n); }},
      {"triu", [](const V& a, const Along& g) { return xp::triu(a[0], g.n); }},
      {"diagonal", [](const V& a, const Along& g) { return xp::diagonal(a[0], g.n, g.axis.value_or(0), -1); }},
      {"trace", [](const V& a, const Along& g) { return xp::trace(a[0], g.n, g.axis.value_or(0), -1); }},
      {"diag", [](const V& a, const Along& g) { return xp::diag(a[0], g.n); }},
      {"hstack", [](const V& a, const Along&) { return xp::hstack(a); }},
      {"vstack", [](const V& a, const Along&) { return xp::vstack(a); }},
      {"dstack", [](const V& a, const Along&) { return xp::dstack(a); }},
      {"column_stack", [](const V& a, const Along&) { return xp::column_stack(a); }},
      {"broadcast_arrays", [](const V& a, const Along&) { return xp::broadcast_arrays(a)[1]; }},
      {"outer", [](const V& a, const Along&) { return xp::outer(a[0], a[1]); }},
      {"kron", [](const V& a, const Along&) { return xp::kron(a[0], a[1]); }},
      {"inner", [](const V& a, const Along&) { return xp::inner(a[0], a[1]); }},
      {"vdot", [](const V& a, const Along&) { return xp::vdot(a[0], a[1]); }},
      {"tensordot", [](const V& a, const Along& g) { return xp::tensordot(a[0], a[1], g.n); }},
      {"linalg_solve", [](const V& a, const Along&) { return xp::linalg::solve(a[0], a[1]); }},
      {"linalg_inv", [](const V& a, const Along&) { return xp::linalg::inv(a[0]); }},
      {"linalg_det", [](const V& a, const Along&) { return xp::linalg::det(a[0]); }},
      {"linalg_slogdet_sign", [](const V& a, const Along&) { return xp::linalg::slogdet(a[0]).sign; }},
      {"linalg_slogdet_logabsdet", [](const V& a, const Along&) { return xp::linalg::slogdet(a[0]).logabsdet; }},
      {"linalg_cholesky", [](const V& a, const Along&) { return xp::linalg::cholesky(a[0]); }},
      {"linalg_qr_abs_r", [](const V& a, const Along&) { return Array(xp::abs(xp::linalg::qr(a[0]).R)); }},
      {"linalg_svdvals", [](const V& a, const Along&) { return xp::linalg::svdvals(a[0]); }},
      {"linalg_eigvalsh", [](const V& a, const Along&) { return xp::linalg::eigvalsh(a[0]); }},
      {"linalg_pinv", [](const V& a, const Along&) { return xp::linalg::pinv(a[0]); }},
      {"linalg_matrix_rank", [](const V& a, const Along&) { return xp::linalg::matrix_rank(a[0]); }},
      {"linalg_matrix_power", [](const V& a, const Along&) { return xp::linalg::matrix_power(a[0], 3); }},
      {"linalg_norm",
       [](const V& a, const Along& g) {
         return xp::linalg::norm(a[0], kNormOrders.at(static_cast<std::size_t>(g.n)),
                                 a[0].ndim() <= 2 ? xp::Axes(std::nullopt) : xp::Axes({-2, -1}));
       }},
      {"linalg_lstsq", [](const V& a, const Along&) { return xp::linalg::lstsq(a[0], a[1]).x; }},
      {"einsum",
       [](const V& a, const Along& g) { return xp::einsum(kEinsumSubscripts.at(static_cast<std::size_t>(g.n)), a); }},
      {"pad_constant", [](const V& a, const Along& g) { return xp::pad(a[0], pad_widths(g), "constant", 3); }},
      {"pad_edge", [](const V& a, const Along& g) { return xp::pad(a[0], pad_widths(g), "edge"); }},
      {"pad_reflect", [](const V& a, const Along& g) { return xp::pad(a[0], pad_widths(g), "reflect"); }},
      {"pad_symmetric", [](const V& a, const Along& g) { return xp::pad(a[0], pad_widths(g), "symmetric"); }},
      {"pad_wrap", [](const V& a, const Along& g) { return xp::pad(a[0], pad_widths(g), "wrap"); }},
  };
  return calls;
}

struct Expected {
  bool error = false;
  std::string error_type;
  xp::dtype type = xp::dtype::bool_;
  xp::Shape shape;
  std::vector<unsigned char> bytes;
  std::string comparison;
  std::vector<double> bound;
};

Expected read_expected(Tokens& t) {
  Expected e;
  const std::string first = t.word();
  if (first == "error") {
    e.error = true;
    e.error_type = t.word();
    return e;
  }
  e.type = dtype_named(first);
  e.shape = shape_from(t, static_cast<int>(t.integer()));
  e.bytes = from_hex(t.word());
  e.comparison = t.word();
  if (e.comparison == "bound") {
    const std::vector<unsigned char> raw = from_hex(t.word());
    e.bound.resize(raw.size() / sizeof(double));
    if (!raw.empty()) std::memcpy(e.bound.data(), raw.data(), raw.size());
  }
  return e;
}

std::string error_type_of(const std::exception& error) {
  if (dynamic_cast<const xp::ValueError*>(&error)) return "ValueError";
  if (dynamic_cast<const xp::TypeError*>(&error)) return "TypeError";
  if (dynamic_cast<const xp::IndexError*>(&error)) return "IndexError";
  return "other";
}

// An element as text: numbers (not characters) for the 1-byte integers, complex numbers as (re,im).
template <class T>
auto printable(T value) {
  if constexpr (std::is_arithmetic_v<T>) return +value;
  else if constexpr (std::is_same_v<T, xp::float16> || std::is_same_v<T, xp::bfloat16>)
    return static_cast<float>(value);
  else return value;
}

// Whether one real number matches NumPy's under the case's comparison (`bound`: its bound).
template <class F>
bool same_real(F have, F want, const std::string& comparison, double bound) {
  if (std::isnan(want) || std::isnan(have)) return std::isnan(want) && std::isnan(have);
  if (comparison == "bound" && std::isfinite(want))
    return (std::isfinite(have) || std::isinf(bound)) &&  // an infinite bound: rounding may overflow there
           std::abs(static_cast<double>(have) - static_cast<double>(want)) <= bound;
  if (comparison == "signed-zero" || comparison == "bound") return have == want;
  return std::memcmp(&have, &want, sizeof(F)) == 0;
}

template <class T>
bool same_element(T have, T want, const std::string& comparison, double bound) {
  if constexpr (std::is_floating_point_v<T> || std::is_same_v<T, xp::float16> || std::is_same_v<T, xp::bfloat16>) {
    return same_real(have, want, comparison, bound);
  } else if constexpr (std::is_same_v<T, std::complex<float>> || std::is_same_v<T, std::complex<double>>) {
    // max, min and clip propagate a NaN element, which one NumPy's order meets first: any complex NaN
    // (a NaN in either part) matches any other there.
    const auto is_nan = [](T z) { return std::isnan(z.real()) || std::isnan(z.imag()); };
    if (comparison == "signed-zero" && (is_nan(have) || is_nan(want))) return is_nan(have) && is_nan(want);
    return same_real(have.real(), want.real(), comparison, bound) &&
           same_real(have.imag(), want.imag(), comparison, bound);
  } else {
    return have == want;
  }
}

// "" when `got` matches, else what differs.
std::string compare(const Array& got, const Expected& e) {
  if (got.dtype() != e.type)
    return "dtype " + std::string(xp::dtype_name(got.dtype())) + ", NumPy " + std::string(xp::dtype_name(e.type));
  if (got.shape() != e.shape) {
    std::ostringstream s;
    s << "shape " << got.shape() << ", NumPy " << e.shape;
    return s.str();
  }
  return xp::visit_dtype(e.type, [&]<class T>(std::type_identity<T>) -> std::string {
    const std::vector<T> values = got.as<T>().to_vector();
    for (std::size_t i = 0; i < values.size(); ++i) {
      T want;
      if constexpr (std::is_same_v<T, bool>) {
        want = e.bytes[i] != 0;
      } else {
        std::memcpy(static_cast<void*>(&want), e.bytes.data() + i * sizeof(T), sizeof(T));
      }
      const double bound = e.comparison == "bound" ? e.bound[i] : 0.0;
      if (!same_element(values[i], want, e.comparison, bound)) {
        std::ostringstream s;
        s.precision(17);
        s << "element " << i << ": " << printable(values[i]) << ", NumPy " << printable(want);
        if (e.comparison == "bound") s << " (bound " << bound << ")";
        return s.str();
      }
    }
    return "";
  });
}

// ---- Indexing ----

// The "index" line's terms over the case's operands (indexing_cases.py's notation).
std::vector<xp::Index> read_index(Tokens& t, const std::vector<Value>& operands) {
  std::vector<xp::Index> index;
  const std::int64_t count = t.integer();
  const auto end = [&]() -> std::optional<std::int64_t> {
    const std::string w = t.word();
    if (w == "none") return std::nullopt;
    return std::stoll(w);
  };
  for (std::int64_t k = 0; k < count; ++k) {
    const std::string kind = t.word();
    if (kind == "p") {
      index.emplace_back(t.integer());
    } else if (kind == "s") {
      const auto start = end();
      const auto stop = end();
      index.emplace_back(xp::slice(start, stop, t.integer()));
    } else if (kind == "n") {
      index.emplace_back(xp::newaxis);
    } else if (kind == "e") {
      index.emplace_back(xp::ellipsis);
    } else {
      index.emplace_back(std::get<Array>(operands.at(static_cast<std::size_t>(t.integer()))));
    }
  }
  return index;
}

const std::vector<std::string> kModes{"raise", "wrap", "clip"};  // indexing_cases.py's MODES
const std::set<std::string> kIndexing{"getitem", "setitem",  "add_at",   "take",   "take_along_axis",
                                      "put",     "compress", "argwhere", "putmask"};

// The indexing operations: the operands (the indexed array first; index arrays; values last), the
// index, and the "along" line's axis and mode.
Array run_indexing(const std::string& op, const std::vector<Array>& a, const std::vector<xp::Index>& index,
                   const Along& g) {
  const Array& x = a[0];
  if (op == "getitem") return x(index);
  if (op == "setitem") {
    x.at(index) = a.back();
    return x;
  }
  if (op == "add_at") {
    xp::scatter_add(x, index, a.back());
    return x;
  }
  const std::string& mode = kModes.at(static_cast<std::size_t>(g.n));
  if (op == "take") return xp::take(x, a[1], g.axis, mode);
  if (op == "take_along_axis") return xp::take_along_axis(x, a[1], g.axis);
  if (op == "compress") return xp::compress(a[1], x, g.axis);
  if (op == "argwhere") return Array(xp::argwhere(x));
  if (op == "put") xp::put(x, a[1], a[2], mode);
  else if (op == "putmask") xp::putmask(x, a[1], a[2]);
  else throw std::runtime_error("unknown indexing operation " + op);
  return x;
}

struct Tally {
  int cases = 0, passed = 0, failed = 0;
};

// A case's lines, read on a device.
struct CaseInput {
  std::vector<Value> operands;
  std::vector<std::optional<Array>> bases;
  std::optional<Array> out;
  std::optional<xp::Axes> axes;
  bool keepdims = false;
  std::optional<Along> along;
  std::optional<std::string> index_line;
  Along extras;  // the dtype, shape and numbers lines, for the along calls and the reductions' dtype
  Expected expected;
};

// "out input I": operand I itself; "out shifted I views": other views of operand I's base array;
// "out array ...": an array of its own.
void read_out(Tokens& t, CaseInput& c, xp::Device device) {
  const std::string what = t.word();
  if (what == "input") c.out = std::get<Array>(c.operands.at(static_cast<std::size_t>(t.integer())));
  else if (what == "shifted") c.out = read_views(t, *c.bases.at(static_cast<std::size_t>(t.integer())));
  else c.out = read_array(t, device).view;
}

// "axes all|list K A... keepdims 0|1"
void read_axes(Tokens& t, CaseInput& c) {
  if (t.word() == "all") {
    c.axes = xp::Axes(std::nullopt);
  } else {
    std::vector<int> list(static_cast<std::size_t>(t.integer()));
    for (int& a : list) a = static_cast<int>(t.integer());
    c.axes = xp::Axes(list);
  }
  t.word();  // "keepdims"
  c.keepdims = t.integer() != 0;
}

// "along AXIS|none|LO:HI N"
Along read_along(Tokens& t) {
  const std::string axis = t.word();
  Along along;
  along.n = static_cast<int>(t.integer());
  if (const auto colon = axis.find(':'); colon != std::string::npos)
    along.range.emplace(std::stod(axis.substr(0, colon)), std::stod(axis.substr(colon + 1)));
  else if (axis != "none") along.axis = std::stoi(axis);
  return along;
}

CaseInput read_case(const std::vector<std::string>& lines, xp::Device device) {
  CaseInput c;
  c.extras.device = device;
  for (const std::string& line : lines) {
    Tokens t(line);
    const std::string kind = t.word();
    if (kind == "in") {
      c.bases.emplace_back();
      c.operands.push_back(read_operand(t, device, c.bases.back()));
    } else if (kind == "out") {
      read_out(t, c, device);
    } else if (kind == "axes") {
      read_axes(t, c);
    } else if (kind == "along") {
      c.along = read_along(t);
    } else if (kind == "dtype") {
      c.extras.type = dtype_named(t.word());
    } else if (kind == "shape") {
      c.extras.shape = shape_from(t, static_cast<int>(t.integer()));
    } else if (kind == "numbers") {
      for (std::int64_t k = t.integer(); k > 0; --k) c.extras.numbers.push_back(std::stod(t.word()));
    } else if (kind == "index") {
      c.index_line = line.substr(6);
    } else if (kind == "expect") {
      c.expected = read_expected(t);
    }
  }
  return c;
}

#if XP_DIFFERENTIAL_FFT
// fft_cases.py's NORMS.
const char* const kFftNorms[] = {"backward", "ortho", "forward"};

std::string_view fft_norm(const Along& g) { return kFftNorms[static_cast<std::size_t>(g.numbers.at(0))]; }

std::optional<std::int64_t> fft_points(const Along& g) {
  return g.n < 0 ? std::nullopt : std::optional<std::int64_t>(g.n);
}

xp::fft::Lengths fft_lengths(const Along& g) {
  if (!g.shape) return std::nullopt;
  return std::vector<std::int64_t>(g.shape->begin(), g.shape->end());
}

// numpy.fft's functions (fft_cases.py), by name.
const std::map<std::string, AlongCall>& fft_calls() {
  using V = std::vector<Array>;
  using OneAxis = xp::ndarray<> (*)(const xp::ndarray<>&, std::optional<std::int64_t>, int, std::string_view);
  using ManyAxes = xp::ndarray<> (*)(const xp::ndarray<>&, const xp::fft::Lengths&, const xp::Axes&, std::string_view);
  const auto one_axis = [](OneAxis f) {
    return [f](const V& a, const Along& g) { return f(a[0], fft_points(g), g.axis.value_or(-1), fft_norm(g)); };
  };
  const auto many_axes = [](ManyAxes f) {
    return [f](const V& a, const Along& g) { return f(a[0], fft_lengths(g), g.axes, fft_norm(g)); };
  };
  static const std::map<std::string, AlongCall> calls{
      {"fft_fft", one_axis(xp::fft::fft)},
      {"fft_ifft", one_axis(xp::fft::ifft)},
      {"fft_rfft", one_axis(xp::fft::rfft)},
      {"fft_irfft", one_axis(xp::fft::irfft)},
      {"fft_hfft", one_axis(xp::fft::hfft)},
      {"fft_ihfft", one_axis(xp::fft::ihfft)},
      {"fft_fftn", many_axes(xp::fft::fftn)},
      {"fft_ifftn", many_axes(xp::fft::ifftn)},
      {"fft_rfftn", many_axes(xp::fft::rfftn)},
      {"fft_irfftn", many_axes(xp::fft::irfftn)},
      {"fft_fft2", many_axes(xp::fft::fft2)},
      {"fft_fftfreq", [](const V&, const Along& g) { return xp::fft::fftfreq(g.n, g.numbers.at(1), g.device); }},
      {"fft_rfftfreq", [](const V&, const Along& g) { return xp::fft::rfftfreq(g.n, g.numbers.at(1), g.device); }},
      {"fft_fftshift", [](const V& a, const Along& g) { return xp::fft::fftshift(a[0], g.axes); }},
      {"fft_ifftshift", [](const V& a, const Along& g) { return xp::fft::ifftshift(a[0], g.axes); }},
  };
  return calls;
}
#endif

// The case's operation through the library.
Array compute(const std::string& op, CaseInput& c) {
  std::vector<Array> arrays;
  for (const Value& operand : c.operands)
    if (const Array* array = std::get_if<Array>(&operand)) arrays.push_back(*array);
  if (c.index_line || kIndexing.contains(op)) {
    Tokens t(c.index_line.value_or("0"));
    return run_indexing(op, arrays, read_index(t, c.operands), c.along.value_or(Along{}));
  }
  if (c.along) {
    Along& g = *c.along;
    g.type = c.extras.type;
    g.shape = c.extras.shape;
    g.numbers = c.extras.numbers;
    g.device = c.extras.device;
    if (c.axes) g.axes = *c.axes;
    g.keepdims = c.keepdims;
    if (kRandom.contains(op)) return drawn(op, g);
#if XP_DIFFERENTIAL_FFT
    if (op.starts_with("fft_")) return fft_calls().at(op)(arrays, g);
#endif
    return kCreation.contains(op) ? created(op, arrays, g) : along_calls().at(op)(arrays, g);
  }
  if (c.axes && (c.extras.type || c.out))
    return reduction_into_calls().at(op)(arrays.at(0), *c.axes, c.keepdims, c.extras.type, c.out);
  if (c.axes) return reduction_calls().at(op)(arrays.at(0), *c.axes, c.keepdims);
  return elementwise_calls().at(op)(c.operands, c.out);
}

// Runs one case on `device`; "" when it agrees with NumPy.
std::string run_case(const std::string& op, const std::vector<std::string>& lines, xp::Device device) {
  CaseInput c = read_case(lines, device);
  const Expected& expected = c.expected;
  try {
    const Array got = compute(op, c);
    if (expected.error) return "no error, NumPy raises " + expected.error_type;
    return compare(c.out ? *c.out : got, expected);
  } catch (const std::exception& error) {
    if (expected.error && error_type_of(error) == expected.error_type) return "";
    return std::string(expected.error ? "wrong error " : "error ") + error_type_of(error) + ": " + error.what();
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s cases.txt [--show N]\n", argv[0]);
    return 2;
  }
  int show = 20;
  if (argc >= 4 && std::string(argv[2]) == "--show") show = std::atoi(argv[3]);
  std::ifstream file(argv[1]);
  if (!file) {
    std::fprintf(stderr, "xp_differential: cannot read %s\n", argv[1]);
    return 2;
  }
  xp::utils::set_warning_handler([](std::string_view) {});  // NumPy's all-NaN warnings are expected, as its own
  std::vector<xp::Device> devices{xp::cpu(0)};
  if (xp::num_gpus() > 0) devices.push_back(xp::gpu(0));

  std::map<std::string, Tally> by_op;
  Tally total;
  std::string line;
  std::vector<std::string> lines;
  std::string op, number;
  while (std::getline(file, line)) {
    if (line.empty() || line[0] == '#') continue;
    if (line.rfind("case ", 0) == 0) {
      Tokens t(line);
      t.word();
      number = t.word();
      op = t.word();
      lines.clear();
      continue;
    }
    if (line != "end") {
      lines.push_back(line);
      continue;
    }
    for (const xp::Device device : devices) {
      Tally& tally = by_op[op];
      ++tally.cases;
      ++total.cases;
      const std::string problem = run_case(op, lines, device);
      if (problem.empty()) {
        ++tally.passed;
        ++total.passed;
      } else {
        ++tally.failed;
        ++total.failed;
        if (total.failed <= show)
          std::printf("case %s (%s on %s): %s\n", number.c_str(), op.c_str(), device.str().c_str(), problem.c_str());
      }
    }
  }
  std::printf("xp_differential: %d case runs, %d agree with NumPy, %d differ (devices:", total.cases, total.passed,
              total.failed);
  for (const xp::Device device : devices) std::printf(" %s", device.str().c_str());
  std::printf(")\n");
  for (const auto& [name, tally] : by_op)
    if (tally.failed) std::printf("  %-14s %d of %d differ\n", name.c_str(), tally.failed, tally.cases);
  return total.failed == 0 && total.cases > 0 ? 0 : 1;
}
