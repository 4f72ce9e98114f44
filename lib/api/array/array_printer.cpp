// Printing, as MXNet prints an NDArray: NumPy's str() of the elements, then "<ndarray 2x3 @cpu(0)>".
// The element text follows NumPy's array2string with its defaults (precision 8, line width 75,
// summarised with "..." past 1000 elements, 3 edge items).
#include <algorithm>
#include <charconv>
#include <cmath>
#include <complex>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <ostream>
#include <string>
#include <vector>

#include "xp/kernels/complex_math.hpp"
#include "xp/ndarray.hpp"

namespace xp::detail {

namespace {

constexpr int kLineWidth = 75;
constexpr int kPrecision = 8;
constexpr std::int64_t kThreshold = 1000;
constexpr std::int64_t kEdgeItems = 3;

template <class F>
std::string chars(F value, std::chars_format format) {
  char buffer[128];
  return std::string(buffer, std::to_chars(buffer, buffer + sizeof buffer, value, format).ptr);
}

template <class F>
std::string chars(F value, std::chars_format format, int precision) {
  char buffer[512];
  return std::string(buffer, std::to_chars(buffer, buffer + sizeof buffer, value, format, precision).ptr);
}

// Element type T's values as printed: float16 through float, which holds each of them exactly (bfloat16
// prints as ml_dtypes prints it: bfloat_text).
template <class T>
constexpr bool is_two_byte = is_two_byte_float(dtype_of<T>);
template <class T>
using Printed = std::conditional_t<is_two_byte<T>, float, T>;

// The shortest text (in `format`) that reads back as `value` in element type T: for the 2-byte
// floats, the fewest digits that round to the same 2 bytes (NumPy prints np.float16(0.1) as 0.1).
template <class T>
std::string shortest(Printed<T> value, std::chars_format format) {
  if constexpr (is_two_byte<T>) {
    const T element(value);
    for (int precision = 0; precision < 24; ++precision) {
      std::string text = chars(value, format, precision);
      if (T(std::strtof(text.c_str(), nullptr)).bits == element.bits) return text;
    }
  }
  return chars(value, format);
}

// The shortest text that reads back as `value`, rounded to at most kPrecision fraction digits, with
// trailing zeros trimmed but the point kept ("1.", "0.5", "3.14159265"): NumPy's dragon4 with
// unique=True, precision=8, trim='.'.
template <class T>
std::string positional(Printed<T> value) {
  std::string text = shortest<T>(value, std::chars_format::fixed);
  const auto point = text.find('.');
  if (point != std::string::npos && text.size() - point - 1 > kPrecision) {
    text = chars(value, std::chars_format::fixed, kPrecision);
    text.erase(text.find_last_not_of('0') + 1);
  }
  if (text.find('.') == std::string::npos) text += '.';
  return text;
}

struct Scientific {
  std::string mantissa;  // "1.5", "-2."
  std::string exponent;  // "-05", "+100"
};

template <class T>
Scientific scientific(Printed<T> value) {
  std::string text = shortest<T>(value, std::chars_format::scientific);
  auto e = text.find('e');
  std::string mantissa = text.substr(0, e);
  if (const auto point = mantissa.find('.'); point != std::string::npos && mantissa.size() - point - 1 > kPrecision) {
    text = chars(value, std::chars_format::scientific, kPrecision);
    e = text.find('e');
    mantissa = text.substr(0, e);
    mantissa.erase(mantissa.find_last_not_of('0') + 1);
  }
  if (mantissa.find('.') == std::string::npos) mantissa += '.';
  return {mantissa, text.substr(e + 1)};
}

std::string pad_left(const std::string& text, std::size_t width) {
  return text.size() >= width ? text : std::string(width - text.size(), ' ') + text;
}

// NumPy's FloatingFormat: one layout for all the elements shown, chosen from their values; with
// `plus_sign` (a complex number's imaginary parts), non-negative values carry a '+'.
template <class T>
class FloatFormat {
  using F = Printed<T>;

 public:
  explicit FloatFormat(const std::vector<F>& values, bool plus_sign = false) : plus_sign_(plus_sign) {
    std::vector<F> finite;
    bool negative_infinity = false, non_finite = false;
    for (F v : values) {
      if (std::isfinite(v)) {
        finite.push_back(v);
      } else {
        non_finite = true;
        negative_infinity = negative_infinity || (std::isinf(v) && v < 0);
      }
    }
    F max_abs = 0, min_abs = std::numeric_limits<F>::infinity();
    for (F v : finite) {
      if (v == 0) continue;
      max_abs = std::max(max_abs, std::abs(v));
      min_abs = std::min(min_abs, std::abs(v));
    }
    exponential_ =
        max_abs != 0 && (max_abs >= F(1e8) || min_abs < F(1e-4) || static_cast<double>(max_abs) / min_abs > 1e3);
    if (exponential_) {
      for (F v : finite) {
        const Scientific s = signed_scientific(v);
        const auto point = s.mantissa.find('.');
        pad_left_ = std::max(pad_left_, point);
        fraction_digits_ = std::max(fraction_digits_, s.mantissa.size() - point - 1);
        exponent_digits_ = std::max(exponent_digits_, s.exponent.size() - 1);
      }
      pad_right_ = exponent_digits_ + 2 + fraction_digits_;
    } else {
      for (F v : finite) {
        const std::string text = signed_positional(v);
        const auto point = text.find('.');
        pad_left_ = std::max(pad_left_, point);
        pad_right_ = std::max(pad_right_, text.size() - point - 1);
      }
    }
    if (non_finite) {
      const std::size_t room = pad_right_ + 1;
      const std::size_t longest = 3 + (negative_infinity || plus_sign_ ? 1 : 0);  // "nan", "inf", "-inf", "+inf"
      if (longest > room) pad_left_ = std::max(pad_left_, longest - room);
    }
  }

  std::string operator()(F value) const {
    if (!std::isfinite(value)) {
      const std::string sign = value < 0 ? "-" : plus_sign_ ? "+" : "";
      return pad_left(sign + (std::isnan(value) ? "nan" : "inf"), pad_left_ + pad_right_ + 1);
    }
    if (exponential_) {
      const Scientific s = signed_scientific(value);
      const auto point = s.mantissa.find('.');
      std::string mantissa = s.mantissa + std::string(fraction_digits_ - (s.mantissa.size() - point - 1), '0');
      const std::string digits = s.exponent.substr(1);
      const std::string exponent =
          s.exponent.substr(0, 1) + std::string(exponent_digits_ - digits.size(), '0') + digits;
      return std::string(pad_left_ - point, ' ') + mantissa + "e" + exponent;
    }
    const std::string text = signed_positional(value);
    const auto point = text.find('.');
    return std::string(pad_left_ - point, ' ') + text + std::string(pad_right_ - (text.size() - point - 1), ' ');
  }

 private:
  std::string plus(F value) const { return plus_sign_ && !std::signbit(value) ? "+" : ""; }
  std::string signed_positional(F value) const { return plus(value) + positional<T>(value); }
  Scientific signed_scientific(F value) const {
    Scientific s = scientific<T>(value);
    s.mantissa.insert(0, plus(value));
    return s;
  }

  bool plus_sign_;
  bool exponential_ = false;
  std::size_t pad_left_ = 0, pad_right_ = 0;
  std::size_t fraction_digits_ = 0, exponent_digits_ = 2;
};

template <class T>
std::string integer_text(T value) {
  if constexpr (std::is_signed_v<T>) return std::to_string(static_cast<long long>(value));
  else return std::to_string(static_cast<unsigned long long>(value));
}

// A bfloat16 element as ml_dtypes prints it, in an array or alone: C's %g (6 significant digits),
// unpadded ("[1 -2.5 100]", "3.14062").
std::string bfloat_text(xp::bfloat16 element) {
  const float value = element;
  if (std::isnan(value)) return "nan";
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%g", static_cast<double>(value));
  return buffer;
}

// One part of a complex scalar as NumPy prints it: the shortest text, without a trailing ".0".
template <class F>
std::string complex_part_text(F value) {
  if (std::isnan(value)) return "nan";
  if (std::isinf(value)) return value < 0 ? "-inf" : "inf";
  const F magnitude = std::abs(value);
  const bool fixed = magnitude == 0 || (magnitude >= F(1e-4) && magnitude < F(1e16));
  return chars(value, fixed ? std::chars_format::fixed : std::chars_format::scientific);
}

// A complex scalar as NumPy's str: "(1+2j)", "(1.5-0.25j)", and "2j" when the real part is +0.
template <class F>
std::string complex_scalar_text(std::complex<F> element) {
  const std::string imag = complex_part_text(element.imag()) + "j";
  if (element.real() == 0 && !std::signbit(element.real())) return imag;
  const bool plus = std::isnan(element.imag()) || !std::signbit(element.imag());
  return "(" + complex_part_text(element.real()) + (plus ? "+" : "") + imag + ")";
}

// A 0-d array prints its element as NumPy prints a scalar.
template <class T>
std::string scalar_text(T element) {
  if constexpr (kernels::is_complex_v<T>) {
    return complex_scalar_text(element);
  } else if constexpr (std::is_same_v<T, xp::bfloat16>) {
    return bfloat_text(element);
  } else if constexpr (std::is_same_v<T, bool>) {
    return element ? "True" : "False";
  } else if constexpr (std::is_floating_point_v<T> || is_two_byte<T>) {
    const Printed<T> value = element;
    using F = Printed<T>;
    if (std::isnan(value)) return "nan";
    if (std::isinf(value)) return value < 0 ? "-inf" : "inf";
    const F magnitude = std::abs(value);
    if (magnitude == 0 || (magnitude >= F(1e-4) && magnitude < F(1e16))) {
      std::string text = shortest<T>(value, std::chars_format::fixed);
      return text.find('.') == std::string::npos ? text + ".0" : text;
    }
    return shortest<T>(value, std::chars_format::scientific);
  } else {
    return integer_text(element);
  }
}

// The C-order positions printed: all of them, or with summarisation only the edge items of each
// axis.
bool shown(std::int64_t position, std::int64_t extent, bool summarise) {
  return !summarise || extent <= 2 * kEdgeItems || position < kEdgeItems || position >= extent - kEdgeItems;
}

std::vector<std::int64_t> shown_positions(const Shape& shape, bool summarise) {
  std::vector<std::int64_t> positions;
  const std::int64_t n = numel(shape);
  std::vector<std::int64_t> index(static_cast<std::size_t>(shape.ndim()), 0);
  for (std::int64_t linear = 0; linear < n; ++linear) {
    bool keep = true;
    for (int axis = 0; axis < shape.ndim(); ++axis) keep = keep && shown(index[axis], shape[axis], summarise);
    if (keep) positions.push_back(linear);
    for (int axis = shape.ndim() - 1; axis >= 0 && ++index[axis] == shape[axis]; --axis) index[axis] = 0;
  }
  return positions;
}

// NumPy's _formatArray: nested brackets, rows wrapped at the line width.
class Layout {
 public:
  Layout(const Shape& shape, bool summarise, std::function<std::string(std::int64_t)> word)
      : shape_(shape), strides_(contiguous_strides(shape)), summarise_(summarise), word_(std::move(word)) {}

  std::string format() const { return recurse(0, 0, " ", kLineWidth); }

 private:
  static void extend_line(std::string& text, std::string& line, const std::string& word, int width,
                          const std::string& indent) {
    const bool wrap = line.size() + word.size() > static_cast<std::size_t>(width) && line.size() > indent.size();
    if (wrap) {
      text += line.substr(0, line.find_last_not_of(' ') + 1) + "\n";
      line = indent;
    }
    line += word;
  }

  std::string recurse(int axis, std::int64_t offset, const std::string& indent, int width) const {
    if (axis == shape_.ndim()) return word_(offset);
    const std::string next_indent = indent + " ";
    const int next_width = width - 1;
    const std::int64_t extent = shape_[axis];
    const bool summary = summarise_ && 2 * kEdgeItems < extent;
    const std::int64_t leading = summary ? kEdgeItems : 0;
    const std::int64_t trailing = summary ? kEdgeItems : extent;
    const auto at = [&](std::int64_t position) {
      return recurse(axis + 1, offset + position * strides_[axis], next_indent, next_width);
    };
    std::string text;
    if (axis == shape_.ndim() - 1) {
      const int element_width = width - 1;  // room for the closing bracket
      std::string line = indent;
      for (std::int64_t i = 0; i < leading; ++i) {
        extend_line(text, line, at(i), element_width, indent);
        line += ' ';
      }
      if (summary) {
        extend_line(text, line, "...", element_width, indent);
        line += ' ';
      }
      for (std::int64_t i = trailing; i > 1; --i) {
        extend_line(text, line, at(extent - i), element_width, indent);
        line += ' ';
      }
      extend_line(text, line, at(extent - 1), element_width, indent);
      text += line;
    } else {
      const std::string separator(static_cast<std::size_t>(shape_.ndim() - axis - 1), '\n');
      for (std::int64_t i = 0; i < leading; ++i) text += indent + at(i) + separator;
      if (summary) text += indent + "..." + separator;
      for (std::int64_t i = trailing; i > 1; --i) text += indent + at(extent - i) + separator;
      text += indent + at(extent - 1);
    }
    std::string bracketed = "[";
    bracketed.append(text, indent.size());
    return bracketed += ']';
  }

  Shape shape_;
  Strides strides_;
  bool summarise_;
  std::function<std::string(std::int64_t)> word_;
};

// NumPy's ComplexFloatingFormat: the real parts in one layout, the imaginary parts (signed) in another,
// the 'j' before the imaginary part's padding: "[1.5 +2.j   3.  -0.25j]".
template <class F>
std::function<std::string(std::int64_t)> complex_words(const std::complex<F>* host,
                                                       const std::vector<std::int64_t>& positions) {
  std::vector<F> reals, imags;
  for (std::int64_t i : positions) {
    reals.push_back(host[i].real());
    imags.push_back(host[i].imag());
  }
  return [host, real = FloatFormat<F>(reals), imag = FloatFormat<F>(imags, true)](std::int64_t i) {
    std::string imaginary = imag(host[i].imag());
    imaginary.insert(imaginary.find_last_not_of(' ') + 1, "j");
    return real(host[i].real()) + imaginary;
  };
}

template <class T>
std::string elements_text(const ArrayCore& a) {
  if (a.size() == 0) return "[]";
  std::unique_ptr<T[]> host(new T[a.size()]);
  copy_to_host(a, host.get(), "printing an array");
  if (a.ndim() == 0) return scalar_text(host[0]);

  const bool summarise = static_cast<std::int64_t>(a.size()) > kThreshold;
  const std::vector<std::int64_t> positions = shown_positions(a.shape(), summarise);
  std::function<std::string(std::int64_t)> word;
  if constexpr (std::is_same_v<T, bool>) {
    word = [&](std::int64_t i) { return std::string(host[i] ? " True" : "False"); };
  } else if constexpr (std::is_same_v<T, xp::bfloat16>) {
    word = [&](std::int64_t i) { return bfloat_text(host[i]); };
  } else if constexpr (kernels::is_complex_v<T>) {
    word = complex_words(host.get(), positions);
  } else if constexpr (std::is_floating_point_v<T> || is_two_byte<T>) {
    std::vector<Printed<T>> values;
    for (std::int64_t i : positions) values.push_back(host[i]);
    word = [&, format = FloatFormat<T>(values)](std::int64_t i) { return format(host[i]); };
  } else {
    std::size_t width = 0;
    for (std::int64_t i : positions) width = std::max(width, integer_text(host[i]).size());
    word = [&, width](std::int64_t i) { return pad_left(integer_text(host[i]), width); };
  }
  return Layout(a.shape(), summarise, word).format();
}

}  // namespace

std::ostream& operator<<(std::ostream& out, const ArrayCore& a) {
  out << visit_dtype(a.dtype(), [&](auto type) { return elements_text<typename decltype(type)::type>(a); });
  out << "\n<ndarray ";
  for (int axis = 0; axis < a.ndim(); ++axis) out << (axis ? "x" : "") << a.shape()[axis];
  return out << " @" << a.device() << ">";
}

}  // namespace xp::detail
