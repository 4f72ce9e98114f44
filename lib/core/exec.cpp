#include "xp/detail/exec.hpp"

#include "core/device_registry.hpp"

namespace xp::detail {

Exec exec_on(const Stream& stream) {
  return {stream.device(), stream, !runtime_for(stream.device()).host_synchronous()};
}

Exec exec_on(Device device) {
  // Without a scope, the null stream: no copy of a stream's shared owner.
  if (const Stream* scoped = scoped_stream(device)) return exec_on(*scoped);
  return {device, Stream::null(device), !runtime_for(device).host_synchronous()};
}

}  // namespace xp::detail
