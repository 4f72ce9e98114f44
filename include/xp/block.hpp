#pragma once
/// \file
/// Gluon's Block (MXNet 1.x): a layer or a network of them, with named parameters and children.
///
/// Names come from a per-thread counter per lower-cased class name: the first Dense is "dense0_", its
/// parameters "dense0_weight" and "dense0_bias". Inside `auto scope = net.name_scope();` blocks made
/// get the parent's prefix and a counter of the parent's own ("sequential0_dense0_").
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "xp/export.hpp"
#include "xp/initializer.hpp"
#include "xp/ndarray.hpp"
#include "xp/parameter.hpp"

namespace xp::gluon {

class Block;

/// While alive, blocks made on this thread are named inside `block`'s prefix.
class XP_API NameScope {
 public:
  /// Names made on this thread go inside `block`'s prefix until the scope ends.
  explicit NameScope(Block& block);
  ~NameScope();
  NameScope(const NameScope&) = delete;
  NameScope& operator=(const NameScope&) = delete;

 private:
  Block* previous_;
};

/// A layer or a network of layers with named parameters and children (Gluon's Block); subclasses define forward.
class XP_API Block {
 public:
  virtual ~Block() = default;

  const std::string& prefix() const noexcept {
    return prefix_;
  }  ///< "dense0_": what this block's parameters' names start with
  std::string name() const;  ///< the prefix without its trailing '_'
  /// `auto scope = net.name_scope();` names the children made while it lives inside this block.
  NameScope name_scope() { return NameScope(*this); }

  /// This block's parameters and its children's, by full name.
  ParameterDict collect_params() const;
  /// Every parameter without a value yet (or all, when forced), on `devices` (none: the current device).
  void initialize(const initializer::Initializer& init = initializer::Uniform(), std::vector<Device> devices = {},
                  bool force_reinit = false);
  /// Initializes on one device.
  void initialize(const initializer::Initializer& init, Device device, bool force_reinit = false) {
    initialize(init, std::vector<Device>{device}, force_reinit);
  }
  /// Initializes on one device with the default initializer (Uniform).
  void initialize(Device device) { initialize(initializer::Uniform(), std::vector<Device>{device}); }
  /// Initializes on these devices with the default initializer (Uniform).
  void initialize(std::vector<Device> devices) { initialize(initializer::Uniform(), std::move(devices)); }

  /// MXNet's save_parameters: every parameter under its structural name (the children's keys and the
  /// attribute: "0.weight", "1.bias"), averaged over its devices, in MXNet's file format (xp::save), so
  /// the file does not depend on the names' counters; crash-safe.
  void save_parameters(const std::filesystem::path& path) const;
  /// Reads a file of save_parameters onto `devices` (none: each parameter's own devices, else cpu(0)). A
  /// parameter missing from the file, or a name in the file the block lacks, is a ValueError naming it
  /// (MXNet's texts) unless allow_missing / ignore_extra.
  void load_parameters(const std::filesystem::path& path, std::vector<Device> devices = {}, bool allow_missing = false,
                       bool ignore_extra = false);

  /// The block's own parameter called "weight" / "bias" (ValueError when it has none).
  Parameter weight() const { return own("weight"); }
  /// The block's own parameter called "bias" (ValueError when it has none).
  Parameter bias() const { return own("bias"); }
  /// The block's own parameter registered under `attribute` (ValueError when it has none).
  Parameter own(const std::string& attribute) const;

  /// forward(x).
  ndarray<> operator()(const ndarray<>& x) { return forward(x); }
  /// The block's computation (recorded for backward while autograd records).
  virtual ndarray<> forward(const ndarray<>& x) = 0;
  /// MXNet's printed form.
  virtual std::string repr() const;

 protected:
  explicit Block(std::string_view class_name);  ///< "Dense": names "dense0_", prints "Dense(...)"
  /// Registers a parameter named prefix + attribute (what a custom block's constructor calls).
  Parameter& add_param(std::string attribute, Shape shape, std::shared_ptr<const initializer::Initializer> init,
                       GradReq grad_req = GradReq::write, dtype type = dtype::float32);
  /// Registers a child block, whose parameters collect_params then includes.
  void add_child(std::string key, std::shared_ptr<Block> child);
  const std::vector<std::pair<std::string, std::shared_ptr<Block>>>& children() const noexcept {
    return children_;
  }  ///< the registered children in order, with their keys

 private:
  friend class NameScope;
  void collect(ParameterDict& out) const;
  /// Parameters under their structural names, own first, then each child's (MXNet's order).
  void collect_structural(const std::string& prefix, std::vector<std::pair<std::string, Parameter>>& out) const;

  std::string class_name_;
  std::string prefix_;
  std::vector<std::pair<std::string, Parameter>> params_;  ///< by attribute name
  std::vector<std::pair<std::string, std::shared_ptr<Block>>> children_;
  std::vector<std::pair<std::string, int>> counters_;  ///< names made inside this block's scope
};

/// The block as Gluon prints it: Dense(5 -> 3, linear), Sequential( (0): ... ).
XP_API std::ostream& operator<<(std::ostream& out, const Block& block);

}  // namespace xp::gluon
