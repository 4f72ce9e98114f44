#pragma once
/// \file
/// Gluon's Parameter (MXNet 1.x): a named array with one copy per device and a gradient per copy.
///
/// \code{.cpp}
///   xp::gluon::Parameter w("dense0_weight", {3, 2});
///   w.initialize(nullptr, {xp::cpu(0), xp::cpu(1)});   // drawn ONCE on cpu(0), copied to each device
///   w.data(xp::cpu(1)); w.grad(xp::cpu(1)); w.list_data(); w.zero_grad();
/// \endcode
///
/// A Parameter is a handle: copies share one state (blocks and collect_params hand out copies). A
/// shape with a 0 extent is unknown: initialize then waits (allow_deferred_init) until the first
/// forward gives the shape. Errors carry MXNet 1.x's texts.
#include <iosfwd>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "xp/export.hpp"
#include "xp/initializer.hpp"
#include "xp/ndarray.hpp"

namespace xp::gluon {

/// The parameter's shape is not known yet: it will be at the first forward.
class XP_API DeferredInitializationError : public Error {
 public:
  using Error::Error;
};

XP_API GradReq grad_req_from(const std::string& name);  ///< "write", "add", "null"; ValueError otherwise

/// A named array with one copy per device and a gradient per copy; copies of the handle share one state.
class XP_API Parameter {
 public:
  /// A parameter not yet initialized; extents of 0 in `shape` are unknown until the first forward.
  explicit Parameter(std::string name, Shape shape = Shape(), GradReq grad_req = GradReq::write,
                     dtype type = dtype::float32, std::shared_ptr<const initializer::Initializer> init = nullptr,
                     bool allow_deferred_init = false);

  const std::string& name() const noexcept;  ///< e.g. "dense0_weight"
  const Shape& shape() const noexcept;  ///< 0 extents are not known yet
  dtype data_type() const noexcept;  ///< the dtype of its arrays
  GradReq grad_req() const noexcept;  ///< write, add or null (no gradient)
  const std::shared_ptr<const initializer::Initializer>& init()
      const noexcept;  ///< its own initializer, or null for the default
  /// Fills unknown (0) extents; known extents must agree (the deferred initialization's check).
  void set_shape(const Shape& shape);

  /// The value is made once: by `init`, else the parameter's own initializer, else default_init, on
  /// cpu(0); then copied to every device (none given: the current device). Already initialized and not
  /// forced: MXNet's warning (xp::utils::warn), nothing else.
  void initialize(const initializer::Initializer* init = nullptr, std::vector<Device> devices = {},
                  const initializer::Initializer& default_init = initializer::Uniform(), bool force_reinit = false);
  bool is_initialized() const noexcept;  ///< initialize has made its arrays
  bool is_deferred() const noexcept;  ///< initialize was called and waits for the shape
  /// Finishes a deferred initialization once the shape is known (Blocks call it at the first forward).
  void finish_deferred_init();

  /// The copy on `device`; without one, the only copy whatever the current device, or the current
  /// device's copy when there are several.
  ndarray<> data() const;
  /// The copy on `device` (RuntimeError when it has none).
  ndarray<> data(Device device) const;
  /// The gradient of the copy data() returns.
  ndarray<> grad() const;
  /// The gradient of the copy on `device`.
  ndarray<> grad(Device device) const;
  /// Every copy, in list_ctx() order.
  std::vector<ndarray<>> list_data() const;
  /// Every gradient, in list_ctx() order.
  std::vector<ndarray<>> list_grad() const;
  /// Makes `grads` (one per device in list_ctx order, of the parameter's shape and dtype, on those
  /// devices) its gradient buffers, the current gradients copied in: how a Trainer lays the gradients
  /// of many parameters back to back so that one collective sums them where they lie (PyTorch DDP's
  /// gradient_as_bucket_view); whether each was fresh (autograd::has_fresh_grad) carries over too.
  /// ValueError naming what does not fit.
  void set_grad_buffers(const std::vector<ndarray<>>& grads);
  /// The devices of the copies.
  std::vector<Device> list_ctx() const;
  /// Sets every gradient to zero.
  void zero_grad();
  /// The average of the copies, on cpu(0) (MXNet's _reduce: what is saved).
  ndarray<> reduce() const;
  /// The average of the copies, moved to `devices` (MXNet's reset_ctx).
  void reset_ctx(std::vector<Device> devices);
  /// Writes `value` into every copy.
  void set_data(const ndarray<>& value);
  /// A value loaded from a file (MXNet's _load_init): its shape must fit the known extents and its dtype
  /// be the parameter's (ValueError with MXNet's texts). An initialized parameter takes it with set_data
  /// (`devices`, when given, must be its devices); otherwise it is created on `devices`, else on the
  /// devices a deferred initialization waits for, else on cpu(0).
  void load_init(const ndarray<>& value, std::vector<Device> devices = {});

  /// Two handles of the same parameter.
  bool operator==(const Parameter& other) const noexcept { return state_ == other.state_; }

 private:
  struct State;
  std::size_t index_of(Device device) const;
  void check_initialized() const;
  void create(const ndarray<>& value, const std::vector<Device>& devices);
  std::shared_ptr<State> state_;
};

/// Parameter dense0_weight (shape=(3, 2), dtype=float32)
XP_API std::ostream& operator<<(std::ostream& out, const Parameter& p);

/// collect_params(): parameters by name, in name order (MXNet's ParameterDict sorted by the Trainer).
class XP_API ParameterDict {
 public:
  void add(const Parameter& p);  ///< ValueError for another parameter of the same name
  const Parameter& operator[](const std::string& name) const;  ///< KeyError-like ValueError when absent
  bool contains(const std::string& name) const {
    return params_.contains(name);
  }  ///< whether a parameter of this name is in the dict
  std::size_t size() const noexcept { return params_.size(); }  ///< the number of parameters
  auto begin() const { return params_.begin(); }  ///< iterates (name, Parameter) pairs in name order
  auto end() const { return params_.end(); }  ///< the end of that iteration
  /// Initializes every parameter (see Parameter::initialize).
  void initialize(const initializer::Initializer& init = initializer::Uniform(), std::vector<Device> devices = {},
                  bool force_reinit = false) const;
  /// Sets every parameter's gradients to zero.
  void zero_grad() const;
  /// Moves every parameter to `devices`.
  void reset_ctx(const std::vector<Device>& devices) const;

 private:
  std::map<std::string, Parameter> params_;
};

}  // namespace xp::gluon
