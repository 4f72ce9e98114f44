#include "xp/device.hpp"

#include <charconv>
#include <ostream>

#include "xp/error.hpp"

namespace xp {

namespace {

constexpr std::string_view type_name(DeviceType type) {
  switch (type) {
    case DeviceType::cpu: return "cpu";
    case DeviceType::gpu: return "gpu";
    case DeviceType::cpu_pinned: return "cpu_pinned";
  }
  return "?";
}

int checked_id(int id) {
  XP_CHECK(id >= 0 && id < Device::kMaxDeviceId, ValueError, "device id ", id, " is out of range [0, ",
           Device::kMaxDeviceId, ")");
  return id;
}

DeviceType checked_type(DeviceType type) {
  XP_CHECK(type == DeviceType::cpu || type == DeviceType::gpu || type == DeviceType::cpu_pinned, ValueError,
           "unknown device type ", static_cast<int>(type));
  return type;
}

// Parses "name", "name(id)" or "name:id".
Device parse(std::string_view spec) {
  const auto invalid = [&] {
    return ValueError("invalid device '", spec,
                      "': expected cpu, gpu or cpu_pinned, optionally with an id as in gpu(1) or "
                      "gpu:1");
  };
  std::string_view name = spec;
  std::string_view digits;
  if (const auto colon = spec.find(':'); colon != std::string_view::npos) {
    name = spec.substr(0, colon);
    digits = spec.substr(colon + 1);
    if (digits.empty()) throw invalid();
  } else if (const auto open = spec.find('('); open != std::string_view::npos) {
    if (spec.back() != ')') throw invalid();
    name = spec.substr(0, open);
    digits = spec.substr(open + 1, spec.size() - open - 2);
    if (digits.empty()) throw invalid();
  }
  int id = 0;
  if (!digits.empty()) {
    const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), id);
    if (error != std::errc() || end != digits.data() + digits.size()) throw invalid();
  }
  for (DeviceType type : {DeviceType::cpu, DeviceType::gpu, DeviceType::cpu_pinned})
    if (name == type_name(type)) return Device(type, id);
  throw invalid();
}

thread_local Device current;

}  // namespace

Device::Device(DeviceType type, int id) : type_(checked_type(type)), id_(static_cast<std::int8_t>(checked_id(id))) {}

Device::Device(std::string_view spec) : Device(parse(spec)) {}

std::string Device::str() const { return std::string(type_name(type_)) + "(" + std::to_string(id_) + ")"; }

std::ostream& operator<<(std::ostream& out, Device device) { return out << device.str(); }

Device current_device() noexcept { return current; }

DeviceScope::DeviceScope(Device device) noexcept : previous_(current) { current = device; }

DeviceScope::~DeviceScope() { current = previous_; }

Device get_device_from_id(int id) { return id < 0 ? cpu(0) : gpu(id); }

}  // namespace xp
