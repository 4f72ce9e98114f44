#include "xp/dlpack.hpp"

#include <array>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>

#include "api/array/array_factory.hpp"
#include "api/array/buffer.hpp"
#include "xp/ndim.hpp"

namespace xp {

namespace {

using detail::ArrayCore;
using detail::Buffer;
using detail::Exec;

// DLPack 0.8's kDLBool: Debian's dlpack.h (0.6) predates it.
constexpr std::uint8_t kBoolCode = 6;
#ifdef DLPACK_MAJOR_VERSION
static_assert(kDLBool == kBoolCode);
#endif

DLDataType dl_type_of(xp::dtype type) {
  const auto bits = static_cast<std::uint8_t>(8 * itemsize(type));
  switch (type) {
    case xp::dtype::bool_: return {kBoolCode, 8, 1};
    case xp::dtype::int8:
    case xp::dtype::int16:
    case xp::dtype::int32:
    case xp::dtype::int64: return {kDLInt, bits, 1};
    case xp::dtype::uint8:
    case xp::dtype::uint16:
    case xp::dtype::uint32:
    case xp::dtype::uint64: return {kDLUInt, bits, 1};
    case xp::dtype::float16:
    case xp::dtype::float32:
    case xp::dtype::float64: return {kDLFloat, bits, 1};
    case xp::dtype::bfloat16: return {kDLBfloat, 16, 1};
    case xp::dtype::complex64:
    case xp::dtype::complex128: return {kDLComplex, bits, 1};
  }
  XP_ASSERT(false);
}

std::string describe(DLDataType type) {
  std::string kind;
  switch (type.code) {
    case kDLInt: kind = "int"; break;
    case kDLUInt: kind = "uint"; break;
    case kDLFloat: kind = "float"; break;
    case kDLBfloat: kind = "bfloat"; break;
    case kDLComplex: kind = "complex"; break;
    case kDLOpaqueHandle: kind = "opaque handle "; break;
    case kBoolCode: kind = "bool"; break;
    default: kind = "type code " + std::to_string(type.code) + " of ";
  }
  std::string name = kind + std::to_string(type.bits);
  if (type.lanes != 1) name += " x " + std::to_string(type.lanes) + " lanes";
  return name;
}

xp::dtype dtype_of_dlpack(DLDataType type) {
  XP_CHECK(type.lanes == 1, TypeError, "from_dlpack: ", describe(type),
           ": vector types (lanes != 1) are not supported");
  for (int t = 0; t < kNumDtypes; ++t) {
    const DLDataType ours = dl_type_of(static_cast<xp::dtype>(t));
    if (ours.code == type.code && ours.bits == type.bits) return static_cast<xp::dtype>(t);
  }
  throw TypeError(
      "from_dlpack: dtype ", describe(type),
      " is not supported (xparray has bool, int8..int64, uint8..uint64, float16, bfloat16, float32, float64, "
      "complex64, complex128)");
}

DLDevice dl_device_of(Device device) {
  switch (device.type()) {
    case DeviceType::cpu: return {kDLCPU, 0};
    case DeviceType::cpu_pinned: return {kDLCUDAHost, 0};
    case DeviceType::gpu: return {kDLCUDA, device.id()};
  }
  XP_ASSERT(false);
}

// The device type as the producer stored it. A C producer may store any int there, and C++ may not
// read one outside DLDeviceType's enumerators as a DLDeviceType (found by fuzz_dlpack).
std::int32_t device_type_code(const DLDevice& device) {
  static_assert(sizeof device.device_type == sizeof(std::int32_t));
  std::int32_t code;
  std::memcpy(&code, &device.device_type, sizeof code);
  return code;
}

std::string describe(const DLDevice& device) {
  static constexpr std::array<const char*, 14> names{
      "",          "kDLCPU",   "kDLCUDA", "kDLCUDAHost", "kDLOpenCL",   "",          "",
      "kDLVulkan", "kDLMetal", "kDLVPI",  "kDLROCM",     "kDLROCMHost", "kDLExtDev", "kDLCUDAManaged"};
  const std::int32_t code = device_type_code(device);
  const auto index = static_cast<std::size_t>(code);
  const std::string name = code >= 0 && index < names.size() && *names[index] ? names[index] : "device type";
  return name + " (" + std::to_string(code) + "), device " + std::to_string(device.device_id);
}

Device device_of(const DLDevice& device) {
  switch (device_type_code(device)) {
    case kDLCPU: return cpu(0);
    case kDLCUDAHost: return cpu_pinned(0);
    case kDLCUDA:
      XP_CHECK(device.device_id >= 0 && device.device_id < num_gpus(), ValueError, "from_dlpack: ", describe(device),
               ": this process sees ", num_gpus(), " GPU(s)");
      return gpu(device.device_id);
    default:
      throw ValueError("from_dlpack: ", describe(device), " is not supported (kDLCPU, kDLCUDA and kDLCUDAHost are)");
  }
}

// What a DLManagedTensorVersioned we produced owns: a view of the array (keeping its memory alive)
// and the shape and strides its DLTensor points to.
struct Exported {
  DLManagedTensorVersioned managed{};
  ArrayCore array;
  std::array<std::int64_t, kMaxNdim> shape{};
  std::array<std::int64_t, kMaxNdim> strides{};
};

// The producer's tensor, released (its deleter called) exactly once: by the last buffer that views it,
// or when the import fails.
template <class Managed>
std::shared_ptr<void> owner_of(Managed* managed) {
  return std::shared_ptr<void>(managed, [](void* p) {
    auto* m = static_cast<Managed*>(p);
    if (m->deleter) m->deleter(m);
  });
}

std::uint64_t flags_of(const DLManagedTensorVersioned& managed) { return managed.flags; }
std::uint64_t flags_of(const DLManagedTensor&) { return 0; }

template <class Managed>
ndarray<> import_tensor(Managed* managed, std::optional<bool> copy) {
  XP_CHECK(managed != nullptr, ValueError, "from_dlpack: the tensor is a null pointer");
  std::shared_ptr<void> owner = owner_of(managed);  // from here on, every exit releases the tensor
  if constexpr (std::is_same_v<Managed, DLManagedTensorVersioned>) {
    // Only the version and the deleter may be read from another major version's layout.
    XP_CHECK(managed->version.major == kDLPackMajorVersion, ValueError, "from_dlpack: DLPack version ",
             managed->version.major, ".", managed->version.minor, " (xparray reads ", kDLPackMajorVersion, ".x)");
  }
  const DLTensor& t = managed->dl_tensor;
  XP_CHECK(t.ndim >= 0 && t.ndim <= kMaxNdim, ValueError, "from_dlpack: ", t.ndim,
           " dimensions (xparray arrays have 0 to ", kMaxNdim, ")");
  XP_CHECK(t.ndim == 0 || t.shape != nullptr, ValueError, "from_dlpack: ", t.ndim, " dimensions but a null shape");
  const xp::dtype type = dtype_of_dlpack(t.dtype);
  const Device device = device_of(t.device);
  Shape shape;
  Strides strides;
  for (int i = 0; i < t.ndim; ++i) shape.push_back(t.shape[i]);
  detail::checked_bytes(shape, type, "from_dlpack");
  if (t.strides) {
    for (int i = 0; i < t.ndim; ++i) strides.push_back(t.strides[i]);
  } else {
    strides = contiguous_strides(shape);
  }
  XP_CHECK(t.data != nullptr || numel(shape) == 0, ValueError, "from_dlpack: a tensor of shape ", shape,
           " with a null data pointer");
  // In integers: a byte_offset that runs off the address space must not reach pointer arithmetic.
  static_assert(sizeof(std::uintptr_t) == sizeof t.byte_offset, "64-bit addresses");
  const auto base = reinterpret_cast<std::uintptr_t>(t.data);
  const std::uintptr_t address = base + t.byte_offset;
  XP_CHECK(address >= base, ValueError, "from_dlpack: byte_offset ", t.byte_offset, " from data ", t.data,
           " runs past the end of the address space");
  // Kernels load whole elements: on a GPU a misaligned one is a fatal error of the context.
  XP_CHECK(numel(shape) == 0 || address % itemsize(type) == 0, ValueError, "from_dlpack: the first element (data ",
           t.data, " + byte_offset ", t.byte_offset, ") is not aligned to the ", itemsize(type), " bytes of ", type);
  void* data = reinterpret_cast<void*>(address);
  const bool read_only = (flags_of(*managed) & DLPACK_FLAG_BITMASK_READ_ONLY) != 0;
  XP_CHECK(!(read_only && copy == false), ValueError,
           "from_dlpack: the tensor is read-only (DLPACK_FLAG_BITMASK_READ_ONLY) and copy=false: xparray "
           "arrays are writable, so a read-only tensor can only be copied");
  if (read_only || copy == true) {
    const ArrayCore source(nullptr, data, shape, strides, device, type);
    ArrayCore copied = detail::copy_to(source, device);
    // The producer may free its memory once released: the copy must be done by then.
    if (detail::ArrayInternals::buffer(copied)) detail::ArrayInternals::buffer(copied)->order_access(Exec{cpu(0)});
    return ndarray<>(std::move(copied));
  }
  return ndarray<>(ArrayCore(std::make_shared<Buffer>(std::move(owner)), data, shape, strides, device, type));
}

}  // namespace

DLManagedTensorVersioned* to_dlpack(const ndarray<>& a, const Stream* stream) {
  const Buffer* buffer = detail::ArrayInternals::buffer(a).get();
  if (buffer) {
    // The consumer reads the memory on its own: the array's pending work goes first.
    const Exec exec = stream ? detail::exec_for(a.device(), stream, "to_dlpack") : Exec{cpu(0)};
    detail::ArrayInternals::buffer(a)->order_access(exec);
  }
  auto exported = std::make_unique<Exported>();
  exported->array = a;
  for (int i = 0; i < a.ndim(); ++i) {
    exported->shape[static_cast<std::size_t>(i)] = a.shape()[i];
    exported->strides[static_cast<std::size_t>(i)] = a.strides()[i];
  }
  // data is the first element and byte_offset 0, as NumPy, CuPy and JAX export: PyTorch's importer
  // ignores byte_offset, so a view exported as (allocation, offset) would read from the allocation's start.
  DLManagedTensorVersioned& m = exported->managed;
  m.version = {kDLPackMajorVersion, kDLPackMinorVersion};
  m.flags = 0;
  m.dl_tensor.data = a.raw_data();
  m.dl_tensor.byte_offset = 0;
  m.dl_tensor.device = dl_device_of(a.device());
  m.dl_tensor.ndim = a.ndim();
  m.dl_tensor.dtype = dl_type_of(a.dtype());
  m.dl_tensor.shape = exported->shape.data();
  m.dl_tensor.strides = exported->strides.data();
  m.manager_ctx = exported.get();
  m.deleter = [](DLManagedTensorVersioned* self) { delete static_cast<Exported*>(self->manager_ctx); };
  return &exported.release()->managed;
}

ndarray<> from_dlpack(DLManagedTensorVersioned* managed, std::optional<bool> copy) {
  return import_tensor(managed, copy);
}

ndarray<> from_dlpack(DLManagedTensor* managed, std::optional<bool> copy) { return import_tensor(managed, copy); }

}  // namespace xp
