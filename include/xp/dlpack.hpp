#pragma once
/// \file
/// DLPack: arrays handed to and taken from other frameworks (NumPy, CuPy, PyTorch, JAX) without a copy.
///
/// - to_dlpack(a): a DLManagedTensorVersioned (DLPack 1.0) viewing a's memory; it keeps the memory alive
///   until the consumer calls its deleter. data is a's first element and byte_offset 0 (as NumPy, CuPy
///   and JAX export: PyTorch's importer ignores byte_offset); strides in elements; cpu -> kDLCPU, cpu_pinned ->
///   kDLCUDAHost, gpu(i) -> kDLCUDA i. a's pending work is waited for on the host first, or, given a stream of a's
///   device, ordered before that stream's later work (the consumer then uses the memory on that stream).
/// - from_dlpack(managed): an array viewing the tensor's memory. It always takes ownership: the
///   producer's deleter runs exactly once, when the last view of the array is gone, or before an error
///   is thrown. kDLCPU -> cpu(0), kDLCUDAHost -> cpu_pinned(0), kDLCUDA i -> gpu(i); the producer's work
///   on the memory must be done or ordered before the current stream of that device. Null strides mean
///   C order. The older DLManagedTensor is accepted too (it has no flags).
///   copy (as the Python array API's from_dlpack): unset -> a view, or a copy where a view is not
///   allowed (a read-only tensor: xparray arrays are writable, so the producer's memory is never
///   written); true -> always a copy; false -> never a copy (a read-only tensor is then a ValueError).
///   Errors name the value: TypeError for an unsupported dtype ("float16", "bfloat16", lanes != 1),
///   ValueError for an unsupported device or DLPack major version, a bad shape, a null pointer, a first
///   element (data + byte_offset) not aligned to the dtype's size or a byte_offset past the address space.
///
/// The structs come from `<dlpack/dlpack.h>`: Debian's libdlpack-dev (0.6), or a newer dlpack.h found
/// first on the include path. 0.6 predates DLPack 1.0's versioned struct; it is declared here then,
/// with the ABI of dlpack.h 1.x. (The CUDA toolkit ships no dlpack.h.)
#include <dlpack/dlpack.h>

#include <cstdint>
#include <optional>

#include "xp/export.hpp"
#include "xp/ndarray.hpp"
#include "xp/stream.hpp"

#ifndef DLPACK_MAJOR_VERSION
extern "C" {
/// DLPack 1.0's version stamp (declared here when dlpack.h is older).
typedef struct {
  uint32_t major;  ///< incompatible ABI changes
  uint32_t minor;  ///< compatible additions
} DLPackVersion;

/// DLPack 1.0's managed tensor: a DLTensor, its owner's context and deleter, and flags.
typedef struct DLManagedTensorVersioned {
  DLPackVersion version;  ///< the DLPack version of the producer
  void* manager_ctx;  ///< the producer's context for its deleter
  void (*deleter)(struct DLManagedTensorVersioned* self);  ///< releases the tensor; called once by its consumer
  uint64_t flags;  ///< DLPACK_FLAG_BITMASK_*
  DLTensor dl_tensor;  ///< the tensor itself
} DLManagedTensorVersioned;
}
/// The tensor must not be written.
#define DLPACK_FLAG_BITMASK_READ_ONLY (1UL << 0UL)
/// The tensor is a copy made for the exchange.
#define DLPACK_FLAG_BITMASK_IS_COPIED (1UL << 1UL)
#endif

namespace xp {

/// The DLPack version xparray produces and reads (minor versions above it are read too).
inline constexpr std::uint32_t kDLPackMajorVersion = 1;
inline constexpr std::uint32_t kDLPackMinorVersion = 0;  ///< the minor version xparray produces

/// A DLPack view of `a`, keeping its memory alive until the consumer calls the deleter (see the file's notes on
/// `stream`).
XP_API DLManagedTensorVersioned* to_dlpack(const ndarray<>& a, const Stream* stream = nullptr);

/// An array viewing (or with `copy`, copying) a DLPack 1.x tensor; takes ownership of `managed`.
XP_API ndarray<> from_dlpack(DLManagedTensorVersioned* managed, std::optional<bool> copy = std::nullopt);
/// The same for the older, unversioned DLManagedTensor.
XP_API ndarray<> from_dlpack(DLManagedTensor* managed, std::optional<bool> copy = std::nullopt);

}  // namespace xp
