#pragma once
/// \file
/// Arrays from memory the library did not allocate:
/// \code{.cpp}
///   auto a = xp::from_host(values.data(), {2, 3}, xp::gpu(0));  // a copy of host memory read in C order
///   auto b = xp::wrap(ptr, {2, 3}, {}, xp::cpu(0), [](void* p) { std::free(p); });  // the memory itself
/// \endcode
/// wrap gives an array over `data` without copying (CuPy's UnownedMemory, NumPy's frombuffer): of `shape`,
/// with `strides` counted in elements as Strides are (empty: C order; negative ones step back), on
/// `device`, whose memory `data` must be. `deleter(data)` is called once, when the last array viewing the
/// memory is gone and the streams that used it have passed that work; a null deleter leaves the memory
/// the caller's to keep alive meanwhile. The library takes ownership only when wrap returns: on an error
/// (a null `data` with elements, `data` not aligned for the element type, strides not one per axis, a
/// size past the address space) the deleter is not called. Arrays over wrapped memory are as any other:
/// views, writes, autograd.
#include <functional>

#include "xp/creation.hpp"
#include "xp/export.hpp"
#include "xp/ndarray.hpp"

namespace xp {

/// An array over `data` on `device`, its elements not copied; `deleter(data)` when the last view is gone.
XP_API ndarray<> wrap(void* data, const Shape& shape, const Strides& strides, xp::dtype type, Device device,
                      std::function<void(void*)> deleter);
/// The same with the element type from the pointer's.
template <element_type T>
ndarray<T> wrap(T* data, const Shape& shape, const Strides& strides, Device device,
                std::function<void(void*)> deleter) {
  return wrap(static_cast<void*>(data), shape, strides, dtype_of<T>, device, std::move(deleter)).template as<T>();
}

/// A copy on `device` of the host memory at `data`, read in C order as `shape`.
template <element_type T>
ndarray<T> from_host(const T* data, const Shape& shape, Device device = current_device()) {
  return ndarray<T>(detail::from_host(data, shape, dtype_of<T>, device));
}

}  // namespace xp
