#pragma once
#include <sstream>
#include <string>
#include <vector>

#include "xp/device.hpp"

namespace xp::gluon {

// Python's repr of a list of devices, as MXNet's messages print it: [cpu(0), gpu(1)].
inline std::string device_list(const std::vector<Device>& devices) {
  std::ostringstream out;
  out << '[';
  for (std::size_t i = 0; i < devices.size(); ++i) out << (i ? ", " : "") << devices[i];
  out << ']';
  return out.str();
}

}  // namespace xp::gluon
