#pragma once
/// \file
/// Devices (MXNet's Context, CuPy's Device). A Device is a plain value: a type and an id. cpu(i) for
/// different i are distinct devices that share host memory, so every multi-device rule (mismatch
/// errors, per-device pools, per-device copies) holds and is testable on a machine without a GPU.
///
/// The current device is thread-local and only chooses where creation routines put new arrays when no
/// device is given; operations take their device from their operands, never from this ambient state.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <iosfwd>
#include <string>
#include <string_view>

#include "xp/export.hpp"

namespace xp {

/// Where an array's memory lives: host memory, a GPU's memory, or page-locked host memory.
enum class DeviceType : std::int8_t { cpu = 1, gpu = 2, cpu_pinned = 3 };

/// A device's free and total memory in bytes.
struct XP_API MemoryInfo {
  std::size_t free = 0;  ///< bytes free
  std::size_t total = 0;  ///< bytes in all
};

/// A device: a type and an id, a plain value (MXNet's Context).
class XP_API Device {
 public:
  /// Device ids range over [0, kMaxDeviceId); larger or negative ids are a ValueError.
  static constexpr int kMaxDeviceId = 64;

  constexpr Device() noexcept = default;  ///< cpu(0)
  /// `type`(`id`); an id outside [0, kMaxDeviceId) is a ValueError.
  Device(DeviceType type, int id = 0);
  /// "cpu", "cpu(0)", "gpu:1", "gpu(1)", "cpu_pinned(0)"; anything else is a ValueError.
  explicit Device(std::string_view spec);

  DeviceType type() const noexcept { return type_; }  ///< cpu, gpu or cpu_pinned
  int id() const noexcept { return id_; }  ///< the device's ordinal among its type
  bool is_gpu() const noexcept { return type_ == DeviceType::gpu; }  ///< true for gpu(i)
  /// cpu and cpu_pinned devices: their memory is host memory and the CPU computes on it.
  bool is_host() const noexcept { return type_ != DeviceType::gpu; }
  std::string str() const;  ///< "cpu(0)", "gpu(1)", "cpu_pinned(0)"

  void synchronize() const;  ///< waits for all work queued on the device
  void empty_cache() const;  ///< returns this device's unreferenced pooled memory
  MemoryInfo memory_info() const;  ///< free and total bytes (gpu: the driver's numbers)

  /// Same type and same id.
  friend constexpr bool operator==(Device, Device) noexcept = default;

 private:
  DeviceType type_ = DeviceType::cpu;
  std::int8_t id_ = 0;
};

/// MXNet's name for a Device.
using Context = Device;

/// Writes device.str().
XP_API std::ostream& operator<<(std::ostream& out, Device device);

/// The CPU with ordinal `id` (host memory; distinct ids are distinct devices).
inline Device cpu(int id = 0) { return Device(DeviceType::cpu, id); }
/// GPU `id`.
inline Device gpu(int id = 0) { return Device(DeviceType::gpu, id); }
/// Page-locked host memory, which GPUs reach directly and copy from asynchronously.
inline Device cpu_pinned(int id = 0) { return Device(DeviceType::cpu_pinned, id); }

/// The calling thread's current device; cpu(0) until a DeviceScope says otherwise.
XP_API Device current_device() noexcept;

/// RAII: makes `device` current for this thread until the scope ends, then restores the previous one.
/// { xp::DeviceScope scope(xp::gpu(1)); ... } is MXNet's `with mx.gpu(1):`. Scopes nest.
class XP_API DeviceScope {
 public:
  /// Makes `device` current until the scope ends.
  explicit DeviceScope(Device device) noexcept;
  ~DeviceScope();
  DeviceScope(const DeviceScope&) = delete;
  DeviceScope& operator=(const DeviceScope&) = delete;

 private:
  Device previous_;
};

/// Whether the library was built with its CUDA backend (whether or not a GPU is present).
XP_API bool built_with_cuda() noexcept;
/// Whether GPU collectives (kvstore over several GPUs, xp::dist on GPU arrays) go through NCCL: false in a
/// CUDA build configured where no NCCL was found (xp::dist then moves GPU arrays through host memory).
XP_API bool built_with_nccl() noexcept;
/// The number of usable GPUs: 0 without a driver, without a device or in a build without CUDA.
XP_API int num_gpus() noexcept;
/// gpu(id).memory_info(): throws CudaError when the GPU cannot be queried.
XP_API MemoryInfo gpu_memory_info(int id = 0);
/// gpu(id); a negative id means the CPU: cpu(0) (Chainer's DummyDevice).
XP_API Device get_device_from_id(int id);
/// device.synchronize()
XP_API void synchronize(Device device = current_device());

}  // namespace xp

/// \cond STD_SPECIALIZATIONS
template <>
struct std::hash<xp::Device> {
  std::size_t operator()(xp::Device d) const noexcept {
    return std::hash<int>()(static_cast<int>(d.type()) * xp::Device::kMaxDeviceId + d.id());
  }
};
/// \endcond
