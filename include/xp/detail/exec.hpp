#pragma once
// Where an operation runs: a device and the stream its work is queued on. Every operation computes
// one from its operands' device and the calling thread's current stream of it; everything below
// (output and scratch allocation, ordering against other streams, the loop drivers) takes it.
#include "xp/device.hpp"
#include "xp/export.hpp"
#include "xp/stream.hpp"

namespace xp::detail {

struct XP_API Exec {
  Device device;
  Stream stream = Stream::null(device);
  // The stream's work may still be running when the call that queued it returns (GPU streams).
  bool asynchronous = false;
};

XP_API Exec exec_on(const Stream& stream);
// The innermost StreamScope's stream of `device` on this thread, or null (its null stream).
XP_API const Stream* scoped_stream(Device device) noexcept;
// On the calling thread's current stream of `device`.
XP_API Exec exec_on(Device device);

}  // namespace xp::detail
