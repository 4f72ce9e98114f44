#pragma once
// Making arrays and handing them to backends.
#include <string_view>

#include "core/backend.hpp"
#include "xp/ndarray.hpp"

namespace xp::detail {

// A new C-contiguous array from the device's pool; with a GPU stream, from that stream's blocks.
// ValueError for negative extents or a size that overflows.
ArrayCore new_array(const Shape& shape, xp::dtype type, Device device, const Stream* stream = nullptr);

// An array over memory the caller owns (host memory the library only reads during the call).
ArrayCore borrowed_host_array(const void* data, const Shape& shape, xp::dtype type);

// The array as a backend sees it. Waits first for asynchronous copies still using a pinned buffer.
StridedView view_of(const ArrayCore& a);

// *stream when given (DeviceMismatchError naming `op` unless it is on `device`), else the device's
// null stream.
Stream stream_on(Device device, const Stream* stream, std::string_view op);

}  // namespace xp::detail
