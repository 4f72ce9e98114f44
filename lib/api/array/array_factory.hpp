#pragma once
// Making arrays and handing them to the device kernels.
#include <initializer_list>
#include <span>
#include <string_view>

#include "api/array/buffer.hpp"
#include "core/view_plan.hpp"
#include "support/shape_check.hpp"
#include "xp/detail/exec.hpp"
#include "xp/ndarray.hpp"

namespace xp::detail {

// A new C-contiguous array from the pool of exec's device, from the blocks of exec's stream (the
// current stream of `device` in the second form). ValueError for negative extents or a size that
// overflows.
ArrayCore new_array(const Shape& shape, xp::dtype type, const Exec& exec);
ArrayCore new_array(const Shape& shape, xp::dtype type, Device device);

// Where an operation on `exec` takes its scratch memory: the device's pool, or during xp::capture of
// exec's stream the graph's own (its replays use the blocks again).
MemoryPool& scratch_pool(const Exec& exec);

// An array over memory the caller owns (host memory the library only reads during the call).
ArrayCore borrowed_host_array(const void* data, const Shape& shape, xp::dtype type);

// The access gate (Buffer::order_access) for every array an operation on `exec` reads or writes;
// null entries are skipped.
inline void order_access(const Exec& exec, std::span<const ArrayCore* const> arrays) {
  for (const ArrayCore* a : arrays)
    if (a && ArrayInternals::buffer(*a)) ArrayInternals::buffer(*a)->order_access(exec);
}
inline void order_access(const Exec& exec, std::initializer_list<const ArrayCore*> arrays) {
  order_access(exec, std::span(arrays.begin(), arrays.size()));
}

// The array as device kernels working on `exec` sees it, after the access gate.
StridedView view_of(const ArrayCore& a, const Exec& exec);

// `a` itself when C-contiguous, else a contiguous copy on its own device, made on exec's stream
// when that is the device's, else on the device's current stream. The access gate orders its later
// use on exec.
ArrayCore contiguous(const ArrayCore& a, const Exec& exec);

// On *stream when given (DeviceMismatchError naming `op` unless it is on `device`), else on the
// current stream of `device`.
Exec exec_for(Device device, const Stream* stream, std::string_view op);

}  // namespace xp::detail
