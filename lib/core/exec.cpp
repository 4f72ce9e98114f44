#include "xp/detail/exec.hpp"

#include "core/runtime.hpp"

namespace xp::detail {

Exec exec_on(const Stream& stream) {
  return {stream.device(), stream, !runtime_for(stream.device()).host_synchronous()};
}

Exec exec_on(Device device) { return exec_on(current_stream(device)); }

}  // namespace xp::detail
