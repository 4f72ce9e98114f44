#include "xp/initializer.hpp"

#include <cmath>
#include <sstream>

#include "xp/creation.hpp"
#include "xp/random.hpp"

namespace xp::initializer {

namespace {

// U(low, high) or N(mean, deviation^2) in `type`: float32 and float64 drawn directly, other dtypes
// drawn in float64 and converted.
ndarray<> draw(bool normal, double a, double b, const Shape& shape, dtype type, Device device) {
  if (type == dtype::float32) {
    const auto fa = static_cast<float>(a), fb = static_cast<float>(b);
    return normal ? ndarray<>(random::normal<float>(fa, fb, shape, device))
                  : ndarray<>(random::uniform<float>(fa, fb, shape, device));
  }
  const ndarray<> values = normal ? ndarray<>(random::normal<double>(a, b, shape, device))
                                  : ndarray<>(random::uniform<double>(a, b, shape, device));
  return type == dtype::float64 ? values : values.astype(type);
}

template <class... Parts>
std::string text(const Parts&... parts) {
  std::ostringstream out;
  (out << ... << parts);
  return out.str();
}

}  // namespace

ndarray<> Uniform::operator()(const Shape& shape, dtype type, Device device) const {
  return draw(false, -scale_, scale_, shape, type, device);
}
std::string Uniform::str() const { return text("Uniform(", scale_, ")"); }

ndarray<> Normal::operator()(const Shape& shape, dtype type, Device device) const {
  return draw(true, 0, sigma_, shape, type, device);
}
std::string Normal::str() const { return text("Normal(", sigma_, ")"); }

ndarray<> Constant::operator()(const Shape& shape, dtype type, Device device) const {
  return ndarray<>(full<double>(shape, value_, device)).astype(type);
}
std::string Constant::str() const { return text("Constant(", value_, ")"); }

Xavier::Xavier(std::string rnd_type, std::string factor_type, double magnitude)
    : rnd_type_(std::move(rnd_type)), factor_type_(std::move(factor_type)), magnitude_(magnitude) {
  XP_CHECK(rnd_type_ == "uniform" || rnd_type_ == "gaussian", ValueError, "Xavier: unknown random type '", rnd_type_,
           "' (uniform or gaussian)");
  XP_CHECK(factor_type_ == "avg" || factor_type_ == "in" || factor_type_ == "out", ValueError,
           "Xavier: incorrect factor type '", factor_type_, "' (avg, in or out)");
}

ndarray<> Xavier::operator()(const Shape& shape, dtype type, Device device) const {
  XP_CHECK(shape.ndim() >= 2, ValueError, "Xavier initializer cannot be applied to vector of shape ", shape,
           ". It requires at least 2D.");
  double receptive_field = 1;
  for (int axis = 2; axis < shape.ndim(); ++axis) receptive_field *= static_cast<double>(shape[axis]);
  const double fan_in = static_cast<double>(shape[1]) * receptive_field;
  const double fan_out = static_cast<double>(shape[0]) * receptive_field;
  const double factor = factor_type_ == "avg" ? (fan_in + fan_out) / 2 : factor_type_ == "in" ? fan_in : fan_out;
  const double scale = std::sqrt(magnitude_ / factor);
  return rnd_type_ == "uniform" ? draw(false, -scale, scale, shape, type, device)
                                : draw(true, 0, scale, shape, type, device);
}
std::string Xavier::str() const { return text("Xavier(", rnd_type_, ", ", factor_type_, ", ", magnitude_, ")"); }

}  // namespace xp::initializer
