#pragma once
// Autograd's per-thread switches (MXNet's is_recording / is_training). Every public operation reads
// `recording` once: not recording costs that one branch.
namespace xp::detail {

struct AutogradMode {
  bool recording = false;
  bool training = false;
};

inline thread_local AutogradMode autograd_mode;

inline bool recording() noexcept { return autograd_mode.recording; }
inline bool training() noexcept { return autograd_mode.training; }

}  // namespace xp::detail
