#pragma once
// Switching a runtime's current device around a call (c10's DeviceGuardImplInterface): the CUDA
// runtime keeps a per-thread current device that every call uses. The guard sets the device only
// when it differs and restores the previous one on exit, so no xparray call leaves the caller's
// CUDA device changed. The interface lets tests check the switching with a fake runtime.
namespace xp::detail {

class DeviceGuardImpl {
 public:
  virtual ~DeviceGuardImpl() = default;
  virtual int current_device() const = 0;
  virtual void set_device(int id) const = 0;
  // Restoring happens in destructors: it must not throw.
  virtual void restore_device(int id) const noexcept = 0;
};

class DeviceGuard {
 public:
  DeviceGuard(const DeviceGuardImpl& impl, int id) : impl_(impl), original_(impl.current_device()) {
    if (original_ != id) impl_.set_device(id);
    changed_ = original_ != id;
  }
  ~DeviceGuard() {
    if (changed_) impl_.restore_device(original_);
  }
  DeviceGuard(const DeviceGuard&) = delete;
  DeviceGuard& operator=(const DeviceGuard&) = delete;

 private:
  const DeviceGuardImpl& impl_;
  int original_;
  bool changed_ = false;
};

}  // namespace xp::detail
