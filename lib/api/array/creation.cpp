#include "xp/creation.hpp"

#include <cmath>
#include <cstring>
#include <limits>

#include "api/array/array_factory.hpp"
#include "api/array/device_services.hpp"
#include "xp/kernels/cast.hpp"
#include "xp/profile.hpp"

namespace xp::detail {

namespace {

// One element of dtype `type` holding `value` (as NumPy converts a Python number to the dtype).
struct Element {
  alignas(8) unsigned char bytes[16] = {};
  Element(double value, xp::dtype type) {
    visit_dtype(type, [&](auto t) {
      using T = typename decltype(t)::type;
      const T converted = kernels::cast<T>(value);
      std::memcpy(bytes, &converted, sizeof(T));
    });
  }
};

void fill(const ArrayCore& a, const void* value) {
  const Exec exec = exec_on(a.device());
  kernels_for(a.device()).fill(view_of(a, exec), value, exec);
}

void check_finite(double value, const char* op, const char* what) {
  XP_CHECK(std::isfinite(value), ValueError, op, ": ", what, " must be finite, not ", value);
}

bool is_integral(double value) { return std::trunc(value) == value; }

}  // namespace

ArrayCore empty(const Shape& shape, xp::dtype type, Device device) { return new_array(shape, type, device); }

ArrayCore zeros(const Shape& shape, xp::dtype type, Device device) {
  const profile_range profiled("zeros");
  ArrayCore a = new_array(shape, type, device);
  alignas(8) constexpr unsigned char zero[16] = {};  // all bits zero, for every element size
  fill(a, zero);
  return a;
}

ArrayCore full(const Shape& shape, xp::dtype type, const void* value, Device device) {
  const profile_range profiled("full");
  ArrayCore a = new_array(shape, type, device);
  fill(a, value);
  return a;
}

ArrayCore arange(double start, double stop, double step, xp::dtype type, Device device) {
  const profile_range profiled("arange");
  check_finite(start, "arange", "start");
  check_finite(stop, "arange", "stop");
  check_finite(step, "arange", "step");
  XP_CHECK(step != 0, ValueError, "arange: step must not be zero");
  const bool integral = !is_floating(type) && !is_complex(type);
  XP_CHECK(!integral || (is_integral(start) && is_integral(step)), ValueError, "arange: start (", start, ") and step (",
           step, ") must be whole numbers for ", type);
  const double length = std::ceil((stop - start) / step);
  XP_CHECK(length < 9.0e18, ValueError, "arange: too many elements (", length, ")");
  const Exec exec = exec_on(device);
  ArrayCore a = new_array(Shape(length > 0 ? static_cast<std::int64_t>(length) : 0), type, exec);
  const IotaRange range{integral, static_cast<std::int64_t>(start), static_cast<std::int64_t>(step), start, step};
  kernels_for(device).iota(view_of(a, exec), range, exec);
  return a;
}

ArrayCore linspace(double start, double stop, std::int64_t num, bool endpoint, xp::dtype type, Device device) {
  const profile_range profiled("linspace");
  check_finite(start, "linspace", "start");
  check_finite(stop, "linspace", "stop");
  XP_CHECK(num >= 0, ValueError, "linspace: the number of samples must be non-negative, not ", num);
  const std::int64_t divisions = endpoint ? num - 1 : num;
  const double step = divisions > 0 ? (stop - start) / static_cast<double>(divisions) : 0;
  const Exec exec = exec_on(device);
  ArrayCore a = new_array(Shape(num), type, exec);
  kernels_for(device).iota(view_of(a, exec), IotaRange{false, 0, 0, start, step}, exec);
  if (endpoint && num > 1) {  // exactly stop, whatever the rounding of start + (num - 1) * step
    const Element last(stop, type);
    fill(index(a, std::array<Index, 1>{num - 1}), last.bytes);
  }
  return a;
}

ArrayCore eye(std::int64_t n, std::optional<std::int64_t> m, std::int64_t k, xp::dtype type, Device device) {
  const profile_range profiled("eye");
  const std::int64_t columns = m.value_or(n);
  XP_CHECK(n >= 0 && columns >= 0, ValueError, "eye: negative dimensions are not allowed: (", n, ", ", columns, ")");
  ArrayCore a = detail::zeros(Shape(n, columns), type, device);
  const std::int64_t first_row = k >= 0 ? 0 : -k;
  const std::int64_t first_column = k >= 0 ? k : 0;
  const std::int64_t length = std::min(n - first_row, columns - first_column);
  if (length > 0) {
    const ArrayCore flat = reshape(a, Shape(n * columns));
    const ArrayCore diagonal =
        index(flat, std::array<Index, 1>{slice(first_row * columns + first_column, std::nullopt, columns + 1)});
    const Element one(1, type);
    fill(index(diagonal, std::array<Index, 1>{slice(0, length)}), one.bytes);
  }
  return a;
}

ArrayCore from_host(const void* data, const Shape& shape, xp::dtype type, Device device) {
  const profile_range profiled("array");
  ArrayCore a = new_array(shape, type, device);
  copy_into(borrowed_host_array(data, shape, type), a);
  return a;
}

}  // namespace xp::detail
