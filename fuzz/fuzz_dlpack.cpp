// The DLPack importer's checks on any tensor a producer could hand over: an array, or a ValueError or
// TypeError, and the producer's deleter called exactly once either way. Where the tensor's elements lie
// inside the producer's buffer, the array (a view, or a copy) holds them in C order.
//
// Input, little-endian from the start (missing bytes read as 0):
//   u8 options: bits 0-1 copy (1 true, 2 false, else unset), bit 2 the legacy DLManagedTensor,
//     bit 3 null data, bit 4 strides given, bit 5 DLPACK_FLAG_BITMASK_READ_ONLY, bit 6 null shape
//   u8 major version, u8 dtype code, u8 dtype bits, u16 lanes, i32 device type, i32 device id,
//   i32 ndim, u64 byte offset, then up to 16 extents and up to 16 strides (i64).
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <span>
#include <type_traits>
#include <vector>

#include "fuzz_check.hpp"
#include "xp/dlpack.hpp"
#include "xp/error.hpp"
#include "xp/ndim.hpp"

namespace {

class Reader {
 public:
  Reader(const std::uint8_t* data, std::size_t size) : data_(data), size_(size) {}
  template <class T>
  T get() {
    T value{};
    const std::size_t n = std::min(sizeof value, size_ - std::min(at_, size_));
    if (n > 0) std::memcpy(&value, data_ + at_, n);
    at_ += sizeof value;
    return value;
  }

 private:
  const std::uint8_t* data_;
  std::size_t size_, at_ = 0;
};

// The producer's memory: bytes 0 and 1 only, so that every dtype reads valid values (bools included).
constexpr std::size_t kBufferBytes = 4096;

struct Producer {
  std::vector<std::uint8_t> buffer;
  std::vector<std::int64_t> shape, strides;
  int released = 0;
};

template <class Managed>
void release(Managed* self) {
  ++static_cast<Producer*>(self->manager_ctx)->released;
}

// The tensor's elements in C order when all of them lie inside the buffer and there are not too many.
std::optional<std::vector<std::uint8_t>> expected_elements(const DLTensor& t, const Producer& p) {
  if (t.data == nullptr || t.ndim < 0 || t.ndim > xp::kMaxNdim || (t.ndim > 0 && t.shape == nullptr) ||
      t.dtype.bits % 8 != 0 || t.dtype.bits == 0)
    return std::nullopt;
  const std::size_t itemsize = t.dtype.bits / 8;
  std::vector<std::uint8_t> elements;
  const std::span<const std::int64_t> shape(t.shape, static_cast<std::size_t>(t.ndim));
  if (std::any_of(shape.begin(), shape.end(), [](std::int64_t extent) { return extent < 0; })) return std::nullopt;
  if (std::find(shape.begin(), shape.end(), 0) != shape.end()) return elements;
  // Every extent is at least 1 and their product at most 2^16 below: no sum can overflow.
  __int128 count = 1, lowest = 0, highest = 0;
  std::vector<std::int64_t> strides(static_cast<std::size_t>(t.ndim));
  for (int axis = t.ndim - 1, step = 1; axis >= 0; --axis) {
    const std::int64_t extent = t.shape[axis];
    count *= extent;
    if (count > (1 << 16)) return std::nullopt;
    strides[axis] = t.strides ? t.strides[axis] : step;
    step *= static_cast<int>(extent);
    (strides[axis] < 0 ? lowest : highest) += __int128{strides[axis]} * (extent - 1);
  }
  const __int128 first = __int128(t.byte_offset) + lowest * itemsize;
  const __int128 end = __int128(t.byte_offset) + (highest + 1) * itemsize;
  if (first < 0 || end > static_cast<__int128>(p.buffer.size())) return std::nullopt;
  std::vector<std::int64_t> index(static_cast<std::size_t>(t.ndim), 0);
  for (__int128 k = 0; k < count; ++k) {
    __int128 offset = t.byte_offset;
    for (int axis = 0; axis < t.ndim; ++axis) offset += __int128{index[axis]} * strides[axis] * itemsize;
    const auto at = p.buffer.begin() + static_cast<std::ptrdiff_t>(offset);
    elements.insert(elements.end(), at, at + static_cast<std::ptrdiff_t>(itemsize));
    for (int axis = t.ndim - 1; axis >= 0 && ++index[axis] == t.shape[axis]; --axis) index[axis] = 0;
  }
  return elements;
}

// Flags and copy as the input says, except that a tensor reaching outside the buffer is only viewed
// (copy=false, writable): the importer cannot know the producer's bounds, so a copy would read past them.
template <class Managed>
void import(Managed& managed, Producer& producer, std::optional<bool> copy) {
  const DLTensor& t = managed.dl_tensor;
  const std::optional<std::vector<std::uint8_t>> expected = expected_elements(t, producer);
  if (!expected) {
    copy = false;
    if constexpr (std::is_same_v<Managed, DLManagedTensorVersioned>) managed.flags &= ~DLPACK_FLAG_BITMASK_READ_ONLY;
  }
  try {
    const xp::ndarray<> array = xp::from_dlpack(&managed, copy);
    if (expected) {
      FUZZ_CHECK(static_cast<std::size_t>(array.nbytes()) == expected->size());
      std::vector<std::uint8_t> elements(expected->size());
      xp::detail::copy_to_host(array, elements.data());
      FUZZ_CHECK(elements == *expected);
    }
  } catch (const xp::ValueError&) {
  } catch (const xp::TypeError&) {}
  FUZZ_CHECK(producer.released == 1);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  Reader in(data, size);
  const auto options = in.get<std::uint8_t>();
  const auto major = in.get<std::uint8_t>();
  DLTensor t{};
  t.dtype.code = in.get<std::uint8_t>();
  t.dtype.bits = in.get<std::uint8_t>();
  t.dtype.lanes = in.get<std::uint16_t>();
  // Stored as a C producer stores it: any int, also none of DLDeviceType's enumerators.
  const auto device_type = in.get<std::int32_t>();
  static_assert(sizeof t.device.device_type == sizeof device_type);
  std::memcpy(&t.device.device_type, &device_type, sizeof device_type);
  t.device.device_id = in.get<std::int32_t>();
  t.ndim = in.get<std::int32_t>();
  t.byte_offset = in.get<std::uint64_t>();
  Producer producer;
  producer.buffer.resize(kBufferBytes);
  for (std::size_t k = 0; k < kBufferBytes; ++k) producer.buffer[k] = static_cast<std::uint8_t>((k ^ (k >> 3)) & 1);
  // Exactly as many extents and strides as the tensor claims (up to 16): reading more is an overflow.
  const std::size_t axes = static_cast<std::size_t>(std::clamp(t.ndim, 0, xp::kMaxNdim));
  for (std::size_t k = 0; k < axes; ++k) producer.shape.push_back(in.get<std::int64_t>());
  if (options & 16)
    for (std::size_t k = 0; k < axes; ++k) producer.strides.push_back(in.get<std::int64_t>());
  t.data = options & 8 ? nullptr : producer.buffer.data();
  t.shape = options & 64 ? nullptr : producer.shape.data();
  t.strides = options & 16 ? producer.strides.data() : nullptr;
  const std::optional<bool> copy = (options & 3) == 1   ? std::optional(true)
                                   : (options & 3) == 2 ? std::optional(false)
                                                        : std::nullopt;
  if (options & 4) {
    DLManagedTensor managed{t, &producer, release<DLManagedTensor>};
    import(managed, producer, copy);
  } else {
    DLManagedTensorVersioned managed{
        {major, 0}, &producer, release<DLManagedTensorVersioned>, options & 32 ? DLPACK_FLAG_BITMASK_READ_ONLY : 0, t};
    import(managed, producer, copy);
  }
  return 0;
}
