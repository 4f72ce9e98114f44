#pragma once
/// \file
/// Autograd (MXNet's mx.autograd): operations on arrays that need gradients are recorded while a
/// `record` scope is open on this thread; backward then writes every variable's gradient.
///
/// \code{.cpp}
///   x.attach_grad();                                   // x.grad(): zeros like x, on x's device
///   { xp::autograd::record rec; auto y = xp::sum(x * x); y.backward(); }   // x.grad() == 2x
///   xp::autograd::backward({l1, l2});                 // several heads; head gradients default to ones
/// \endcode
///
/// Scopes are per thread and nest: `record` turns recording on (and training, unless told otherwise),
/// `pause` turns recording off (and training), `train_mode` / `predict_mode` set training alone
/// (dropout and batch_norm read it). Gradients live on the device of their array; a backward runs
/// each operation's backward on the device its forward ran on. The result of an operation into
/// `out` is not recorded: while recording, one whose operands need gradients is refused.
#include <initializer_list>
#include <span>

#include "xp/export.hpp"
#include "xp/ndarray.hpp"

namespace xp::autograd {

/// Whether operations are being recorded for backward on this thread.
XP_API bool is_recording() noexcept;
/// Whether layers behave as in training (dropout drops, batch_norm uses the batch's statistics).
XP_API bool is_training() noexcept;
/// Each returns the previous setting.
XP_API bool set_recording(bool recording) noexcept;
/// Sets training mode; returns the previous setting.
XP_API bool set_training(bool training) noexcept;

/// \cond DETAIL
namespace detail {
/// Sets recording and training for a scope and puts the previous settings back at its end.
class XP_API ModeScope {
 public:
  ModeScope(const ModeScope&) = delete;
  ModeScope& operator=(const ModeScope&) = delete;

 protected:
  ModeScope(int recording, int training) noexcept;  ///< -1: leave it as it is
  ~ModeScope();

 private:
  bool previous_recording_;
  bool previous_training_;
};
}  // namespace detail
/// \endcond

/// RAII: records operations for backward while alive (MXNet's autograd.record()); train_mode as given.
class XP_API record : detail::ModeScope {
 public:
  /// Records, in training mode unless train_mode is false.
  explicit record(bool train_mode = true) noexcept : ModeScope(1, train_mode) {}
};
/// RAII: stops recording while alive (MXNet's autograd.pause()); predict mode unless train_mode.
class XP_API pause : detail::ModeScope {
 public:
  /// Pauses recording, in predict mode unless train_mode is true.
  explicit pause(bool train_mode = false) noexcept : ModeScope(0, train_mode) {}
};
/// RAII: training mode while alive, recording left as it is.
class XP_API train_mode : detail::ModeScope {
 public:
  train_mode() noexcept : ModeScope(-1, 1) {}
};
/// RAII: predict mode while alive, recording left as it is.
class XP_API predict_mode : detail::ModeScope {
 public:
  predict_mode() noexcept : ModeScope(-1, 0) {}
};

/// Gradients of several heads at once (a sum of their backwards). head_grads: none (ones for every
/// head) or one per head, of its shape. retain_graph keeps the graph for another backward.
XP_API void backward(std::span<const ndarray<>> heads, std::span<const ndarray<>> head_grads = {},
                     bool retain_graph = false);
/// The same with braces: backward({l1, l2}).
inline void backward(std::initializer_list<ndarray<>> heads, std::initializer_list<ndarray<>> head_grads = {},
                     bool retain_graph = false) {
  backward(std::span(heads.begin(), heads.size()), std::span(head_grads.begin(), head_grads.size()), retain_graph);
}

/// Makes `variable` a variable whose gradient backward writes into `gradient` (same shape, dtype and
/// device), as `req` says (MXNet's mark_variables; attach_grad with a buffer of one's own).
XP_API void mark_variable(ndarray<>& variable, const ndarray<>& gradient, GradReq req = GradReq::write);

/// Whether a backward wrote the variable's gradient since the flag was last cleared (the Trainer's
/// stale-gradient check); clearing it is the Trainer's part. mark_variable starts it false.
XP_API bool has_fresh_grad(const ndarray<>& variable);
/// Sets the flag has_fresh_grad reads (MXNet's NDArray._fresh_grad setter); nothing for an array that is
/// not a variable.
XP_API void set_fresh_grad(const ndarray<>& variable, bool fresh);

}  // namespace xp::autograd
