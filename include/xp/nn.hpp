#pragma once
/// \file
/// Gluon's basic layers (mx.gluon.nn, MXNet 1.x): Dense, Activation, Dropout, Flatten, BatchNorm, and
/// Sequential to chain them.
///
/// \code{.cpp}
///   xp::nn::Sequential net;
///   net.add(xp::nn::Dense(1));                       // in_units 0: found at the first forward
///   net.initialize(xp::gpu(0));                      // or {xp::cpu(0), xp::cpu(1)}
///   auto y = net(x); net[0].weight().data();
/// \endcode
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "xp/block.hpp"
#include "xp/export.hpp"
#include "xp/nn_functions.hpp"

namespace xp::nn {

using gluon::Block;
using gluon::Parameter;

/// relu, sigmoid, tanh, softrelu or softsign (ValueError otherwise).
class XP_API Activation : public Block {
 public:
  /// The named activation function as a layer.
  explicit Activation(std::string activation);
  ndarray<> forward(const ndarray<>& x) override;
  std::string repr() const override;

 private:
  std::string activation_;
};

/// Dense's options by name, for designated initializers (MXNet's keyword arguments):
/// `Dense(128, {.activation = "relu", .in_units = 64})` is `Dense(128, "relu", true, true, 64)`.
struct DenseOptions {
  std::string activation{};  ///< "" (linear) or an Activation name
  bool use_bias = true;  ///< whether there is a bias
  bool flatten = true;  ///< x as (batch, the rest); else over x's last axis
  std::int64_t in_units = 0;  ///< 0: taken from the first input
  dtype type = dtype::float32;  ///< the parameters' dtype: float32 or float64
  std::shared_ptr<const initializer::Initializer> weight_initializer{};  ///< null: the initialize() call's
  /// zeros
  std::shared_ptr<const initializer::Initializer> bias_initializer = std::make_shared<initializer::Zero>();
};

/// y = x . weight^T + bias, weight (units, in_units). flatten: x as (batch, the rest); else over x's
/// last axis. The bias starts at zero; in_units = 0 waits for the first input.
class XP_API Dense : public Block {
 public:
  /// `units` outputs; activation: "" (linear) or an Activation name; in_units 0: taken from the first input.
  explicit Dense(
      std::int64_t units, std::string_view activation = "", bool use_bias = true, bool flatten = true,
      std::int64_t in_units = 0, dtype type = dtype::float32,
      std::shared_ptr<const initializer::Initializer> weight_initializer = nullptr,
      std::shared_ptr<const initializer::Initializer> bias_initializer = std::make_shared<initializer::Zero>());
  /// The same, with the options by name.
  Dense(std::int64_t units, const DenseOptions& options);
  ndarray<> forward(const ndarray<>& x) override;
  std::string repr() const override;  ///< Dense(None -> 1, linear), Dense(3 -> 1, Activation(relu))

 private:
  std::int64_t units_;
  bool use_bias_;
  bool flatten_;
  std::shared_ptr<Activation> activation_;
};

/// While training (autograd::is_training): zeros with probability `rate`, the rest scaled by 1 / (1 - rate).
class XP_API Dropout : public Block {
 public:
  /// Drops with probability `rate` while training.
  explicit Dropout(double rate);
  ndarray<> forward(const ndarray<>& x) override;
  std::string repr() const override;

 private:
  double rate_;
};

/// (batch, the rest).
class XP_API Flatten : public Block {
 public:
  Flatten();
  ndarray<> forward(const ndarray<>& x) override;
  std::string repr() const override { return "Flatten"; }
};

/// Normalises over every axis but `axis`; gamma and beta learned (unless scale / center are off),
/// running_mean and running_var auxiliary states updated while training.
class XP_API BatchNorm : public Block {
 public:
  /// MXNet's defaults; in_channels 0: taken from the first input.
  explicit BatchNorm(int axis = 1, double momentum = 0.9, double epsilon = 1e-5, bool center = true, bool scale = true,
                     bool use_global_stats = false, std::int64_t in_channels = 0);
  ndarray<> forward(const ndarray<>& x) override;
  std::string repr() const override;

 private:
  BatchNormOptions options_;
};

/// Blocks applied in order (Gluon's nn.Sequential).
class XP_API Sequential : public Block {
 public:
  Sequential();
  /// Adds blocks in order; each is kept as given (a copy shares its parameters).
  template <class... Blocks>
    requires(std::is_base_of_v<Block, std::decay_t<Blocks>> && ...)
  void add(Blocks&&... blocks) {
    (add_block(std::make_shared<std::decay_t<Blocks>>(std::forward<Blocks>(blocks))), ...);
  }
  /// Appends one block.
  void add_block(std::shared_ptr<Block> block);
  Block& operator[](std::size_t i) const;  ///< IndexError past the end
  std::size_t size() const noexcept { return children().size(); }  ///< the number of blocks
  ndarray<> forward(const ndarray<>& x) override;
};

}  // namespace xp::nn
