#pragma once
/// \file
/// Transfers between devices (Chainer's cuda.to_gpu / to_cpu / copy).
/// - to_gpu: to `device` (default: the current device if it is a GPU, else gpu(0)); an array already
///   there is returned as is. With a stream the copy is asynchronous on it: host data is staged
///   through pinned memory, so the source may be reused as soon as the call returns.
/// - to_cpu: a GPU array comes back as a cpu(0) array, ready to read; a host array is returned as is.
/// - copy: always a new array, on `out_device` (default: the array's own) or into `out`.
/// A stream must belong to one of the devices involved, else DeviceMismatchError.
#include <optional>

#include "xp/device.hpp"
#include "xp/export.hpp"
#include "xp/ndarray.hpp"
#include "xp/stream.hpp"

namespace xp {
/// \cond DETAIL
namespace detail {
XP_API ArrayCore to_gpu(const ArrayCore& a, std::optional<Device> device, const Stream* stream);
XP_API ArrayCore to_cpu(const ArrayCore& a, const Stream* stream);
XP_API ArrayCore copy(const ArrayCore& a, std::optional<Device> out_device, const Stream* stream);
XP_API void copy(const ArrayCore& a, const ArrayCore& out, const Stream* stream);
}  // namespace detail
/// \endcond

/// To `device` (see the file's notes); asynchronous on `stream` when given.
template <class T>
ndarray<T> to_gpu(const ndarray<T>& a, std::optional<Device> device = std::nullopt, const Stream* stream = nullptr) {
  return ndarray<T>(detail::to_gpu(a, device, stream));
}
/// To cpu(0), ready to read; a host array as is.
template <class T>
ndarray<T> to_cpu(const ndarray<T>& a, const Stream* stream = nullptr) {
  return ndarray<T>(detail::to_cpu(a, stream));
}
/// A new array on `out_device` (default: a's).
template <class T>
ndarray<T> copy(const ndarray<T>& a, std::optional<Device> out_device = std::nullopt, const Stream* stream = nullptr) {
  return ndarray<T>(detail::copy(a, out_device, stream));
}
/// Into `out` (any device; the shapes must match).
template <class T>
void copy(const ndarray<T>& a, const ndarray<T>& out, const Stream* stream = nullptr) {
  detail::copy(a, out, stream);
}

}  // namespace xp
