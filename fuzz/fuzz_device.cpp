// Device strings ("gpu(1)", "cpu:0", "cpu_pinned"): a Device or a ValueError, and a parsed device
// reads back from its own str().
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "fuzz_check.hpp"
#include "xp/device.hpp"
#include "xp/error.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    const xp::Device device(text);
    FUZZ_CHECK(device.id() >= 0 && device.id() < xp::Device::kMaxDeviceId);
    FUZZ_CHECK(xp::Device(device.str()) == device);
  } catch (const xp::ValueError&) {}
  return 0;
}
