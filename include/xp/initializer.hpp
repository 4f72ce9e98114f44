#pragma once
/// \file
/// Initializers (mx.init, MXNet 1.x): each makes a new array of a shape and dtype on a device, drawn
/// from the library's random numbers (xp::random::seed makes them repeatable, on every device alike).
///
/// \code{.cpp}
///   xp::initializer::Uniform init;                 // U(-0.07, 0.07), MXNet's default
///   auto w = init({3, 2}, xp::dtype::float32);     // on cpu(0); a device may follow
/// \endcode
///
/// Integer dtypes are drawn in float64 and converted.
#include <memory>
#include <string>

#include "xp/export.hpp"
#include "xp/ndarray.hpp"

namespace xp::initializer {

/// Makes a parameter's initial value (MXNet's mx.init).
class XP_API Initializer {
 public:
  virtual ~Initializer() = default;
  /// A new array of `shape` and `type` on `device`.
  virtual ndarray<> operator()(const Shape& shape, dtype type, Device device = cpu(0)) const = 0;
  /// MXNet's dumps() name and arguments, for printing: "Uniform(0.07)".
  virtual std::string str() const = 0;
  /// A copy that outlives this one (a deferred initialization keeps one until the first forward).
  virtual std::shared_ptr<const Initializer> clone() const = 0;
};

/// U(-scale, scale).
class XP_API Uniform : public Initializer {
 public:
  /// U(-scale, scale).
  explicit Uniform(double scale = 0.07) : scale_(scale) {}
  /// Draws U(-scale, scale).
  ndarray<> operator()(const Shape& shape, dtype type, Device device = cpu(0)) const override;
  std::string str() const override;
  std::shared_ptr<const Initializer> clone() const override { return std::make_shared<Uniform>(*this); }

 private:
  double scale_;
};

/// N(0, sigma^2).
class XP_API Normal : public Initializer {
 public:
  /// N(0, sigma^2).
  explicit Normal(double sigma = 0.01) : sigma_(sigma) {}
  /// Draws N(0, sigma^2).
  ndarray<> operator()(const Shape& shape, dtype type, Device device = cpu(0)) const override;
  std::string str() const override;
  std::shared_ptr<const Initializer> clone() const override { return std::make_shared<Normal>(*this); }

 private:
  double sigma_;
};

/// Every element `value`.
class XP_API Constant : public Initializer {
 public:
  /// Every element `value`.
  explicit Constant(double value) : value_(value) {}
  /// `value` everywhere.
  ndarray<> operator()(const Shape& shape, dtype type, Device device = cpu(0)) const override;
  std::string str() const override;
  std::shared_ptr<const Initializer> clone() const override { return std::make_shared<Constant>(*this); }

 private:
  double value_;
};

/// Zeros (MXNet's init.Zero).
class XP_API Zero : public Constant {
 public:
  Zero() : Constant(0) {}
  std::string str() const override { return "Zero()"; }
  std::shared_ptr<const Initializer> clone() const override { return std::make_shared<Zero>(*this); }
};

/// Ones (MXNet's init.One).
class XP_API One : public Constant {
 public:
  One() : Constant(1) {}
  std::string str() const override { return "One()"; }
  std::shared_ptr<const Initializer> clone() const override { return std::make_shared<One>(*this); }
};

/// Glorot's scale sqrt(magnitude / factor) for arrays of two or more axes, with fan_in = shape[1] times
/// the extents past it and fan_out = shape[0] times them; factor_type "avg" (their mean), "in" or "out";
/// rnd_type "uniform" (U(-scale, scale)) or "gaussian" (N(0, scale^2)). ValueError for a vector and for
/// an unknown rnd_type or factor_type, as MXNet.
class XP_API Xavier : public Initializer {
 public:
  /// See the class's notes for rnd_type, factor_type and magnitude.
  explicit Xavier(std::string rnd_type = "uniform", std::string factor_type = "avg", double magnitude = 3);
  /// Draws Glorot's distribution for `shape`.
  ndarray<> operator()(const Shape& shape, dtype type, Device device = cpu(0)) const override;
  std::string str() const override;
  std::shared_ptr<const Initializer> clone() const override { return std::make_shared<Xavier>(*this); }

 private:
  std::string rnd_type_, factor_type_;
  double magnitude_;
};

}  // namespace xp::initializer
