// DLPack: to_dlpack and from_dlpack by hand-made tensors, the producer's deleter counted; the
// exchange with NumPy is tests/dlpack/numpy_exchange.py.
#include "xp/dlpack.hpp"

#include <doctest/doctest.h>

#include <cstdint>
#include <cstring>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include "device_cases.hpp"
#include "element_types.hpp"

namespace {

// A producer's tensor over its own vector, counting its deleter's calls.
template <class Managed>
struct Produced {
  std::vector<double> storage;
  std::vector<std::int64_t> shape, strides;
  Managed managed{};
  int* deletions;

  Produced(std::vector<double> values, std::vector<std::int64_t> extents, std::vector<std::int64_t> steps, int* counter)
      : storage(std::move(values)), shape(std::move(extents)), strides(std::move(steps)), deletions(counter) {
    if constexpr (std::is_same_v<Managed, DLManagedTensorVersioned>) managed.version = {1, 0};
    DLTensor& t = managed.dl_tensor;
    t.data = storage.data();
    t.device = {kDLCPU, 0};
    t.ndim = static_cast<std::int32_t>(shape.size());
    t.dtype = {kDLFloat, 64, 1};
    t.shape = shape.data();
    t.strides = strides.empty() ? nullptr : strides.data();
    t.byte_offset = 0;
    managed.manager_ctx = this;
    managed.deleter = [](Managed* self) {
      auto* produced = static_cast<Produced*>(self->manager_ctx);
      ++*produced->deletions;
      delete produced;
    };
  }
};

template <class Managed = DLManagedTensorVersioned>
Managed* produce(std::vector<double> values, std::vector<std::int64_t> shape, std::vector<std::int64_t> strides,
                 int* deletions) {
  return &(new Produced<Managed>(std::move(values), std::move(shape), std::move(strides), deletions))->managed;
}

std::vector<std::int64_t> dims(const std::int64_t* values, int n) { return {values, values + n}; }

}  // namespace

XP_TEST_ON_DEVICES(
    "to_dlpack: a view's first element with byte_offset 0, shape, strides in elements, dtype and device") {
  xp::MemoryPool& pool = xp::get_default_memory_pool(device);
  const std::size_t used_before = pool.used_bytes();
  auto whole = xp::arange<float>(0, 24, 1, device).reshape({4, 6});
  DLManagedTensorVersioned* managed = xp::to_dlpack(whole(xp::slice(1, 4), xp::slice(0, 6, 2)));
  const auto* first = static_cast<const char*>(whole.raw_data()) + 6 * sizeof(float);  // row 1
  whole = xp::ndarray<float>();  // the exported tensor alone keeps the memory now
  CHECK(pool.used_bytes() > used_before);
  CHECK(managed->version.major == 1);
  CHECK(managed->version.minor == 0);
  CHECK(managed->flags == 0);
  const DLTensor& t = managed->dl_tensor;
  // As NumPy, CuPy and JAX export: importers that ignore byte_offset (PyTorch's) see the right elements.
  CHECK(t.data == first);
  CHECK(t.byte_offset == 0);
  CHECK(t.ndim == 2);
  CHECK(dims(t.shape, 2) == std::vector<std::int64_t>{3, 3});
  CHECK(dims(t.strides, 2) == std::vector<std::int64_t>{6, 2});
  CHECK(t.dtype.code == kDLFloat);
  CHECK(t.dtype.bits == 32);
  CHECK(t.dtype.lanes == 1);
  const DLDeviceType expected_type = device.is_gpu() ? kDLCUDA : device == xp::cpu_pinned(0) ? kDLCUDAHost : kDLCPU;
  CHECK(t.device.device_type == expected_type);
  CHECK(t.device.device_id == (device.is_gpu() ? device.id() : 0));
  // The consumer's view of the memory: rows 1..3, every second column.
  const xp::ndarray<float> seen = xp::from_dlpack(managed).as<float>();
  CHECK(seen.shape() == xp::Shape{3, 3});
  CHECK(seen.to_vector() == std::vector<float>{6, 8, 10, 12, 14, 16, 18, 20, 22});
}

TEST_CASE("to_dlpack: the memory is returned to the pool exactly once, when the consumer calls the deleter") {
  xp::MemoryPool& pool = xp::get_default_memory_pool(xp::cpu(0));
  const std::size_t used_before = pool.used_bytes();
  DLManagedTensorVersioned* managed = xp::to_dlpack(xp::full<std::int32_t>({1000}, 7, xp::cpu(0)));
  CHECK(pool.used_bytes() == used_before + 4096);  // 4000 bytes rounded up to 512
  const auto* values = static_cast<const std::int32_t*>(managed->dl_tensor.data);
  CHECK(values[999] == 7);
  managed->deleter(managed);
  CHECK(pool.used_bytes() == used_before);
}

TEST_CASE("from_dlpack: a view of the producer's memory; its deleter runs once, when the last view is gone") {
  int deletions = 0;
  DLManagedTensorVersioned* managed = produce({0, 1, 2, 3, 4, 5}, {2, 3}, {3, 1}, &deletions);
  const void* data = managed->dl_tensor.data;
  auto a = xp::from_dlpack(managed).as<double>();
  CHECK(a.raw_data() == data);
  CHECK(a.device() == xp::cpu(0));
  CHECK(a.strides() == xp::Strides{3, 1});
  CHECK(a.to_vector() == std::vector<double>{0, 1, 2, 3, 4, 5});
  a.data()[5] = 50.0;  // writes reach the producer's memory
  CHECK(static_cast<const double*>(data)[5] == 50.0);
  auto column = a(xp::slice(), 1);
  a = xp::ndarray<double>();
  CHECK(deletions == 0);
  CHECK(column.to_vector() == std::vector<double>{1, 4});
  column = xp::ndarray<double>();
  CHECK(deletions == 1);
}

TEST_CASE("from_dlpack: byte_offset, negative and zero strides, null strides (C order), 0-d and empty tensors") {
  int deletions = 0;
  {
    // Elements 4, 3, 2, 1: the data starts 4 elements in and steps back.
    DLManagedTensorVersioned* reversed = produce({0, 1, 2, 3, 4, 5}, {4}, {-1}, &deletions);
    reversed->dl_tensor.byte_offset = 4 * sizeof(double);
    CHECK(xp::from_dlpack(reversed).as<double>().to_vector() == std::vector<double>{4, 3, 2, 1});
    // A broadcast row: stride 0 repeats it.
    const auto repeated = xp::from_dlpack(produce({7, 8}, {3, 2}, {0, 1}, &deletions)).as<double>();
    CHECK(repeated.to_vector() == std::vector<double>{7, 8, 7, 8, 7, 8});
    const auto c_order = xp::from_dlpack(produce({1, 2, 3, 4, 5, 6}, {3, 2}, {}, &deletions)).as<double>();
    CHECK(c_order.strides() == xp::Strides{2, 1});
    CHECK(c_order(2, 0).item() == 5.0);
    const auto scalar = xp::from_dlpack(produce({9.5}, {}, {}, &deletions));
    CHECK(scalar.ndim() == 0);
    CHECK(scalar.as<double>().item() == 9.5);
    auto empty_tensor = produce({}, {0, 3}, {3, 1}, &deletions);
    empty_tensor->dl_tensor.data = nullptr;
    CHECK(xp::from_dlpack(empty_tensor).shape() == xp::Shape{0, 3});
  }
  CHECK(deletions == 5);
}

TEST_CASE("from_dlpack(to_dlpack(a)) shares a's memory, for every dtype (bool as kDLBool, 8 bits)") {
  const auto check_type = [&]<class T>() {
    CAPTURE(xp::dtype_of<T>);
    auto a = xp::zeros<T>({5}, xp::cpu(0));
    DLManagedTensorVersioned* managed = xp::to_dlpack(a);
    const DLDataType type = managed->dl_tensor.dtype;
    CHECK(type.bits == 8 * sizeof(T));
    CHECK(type.lanes == 1);
    const std::uint8_t code = std::is_same_v<T, bool>       ? 6
                              : std::is_floating_point_v<T> ? kDLFloat
                              : std::is_signed_v<T>         ? kDLInt
                                                            : kDLUInt;
    CHECK(type.code == code);
    const xp::ndarray<> back = xp::from_dlpack(managed);
    CHECK(back.dtype() == xp::dtype_of<T>);
    CHECK(back.raw_data() == a.raw_data());
    a.data()[2] = T(1);
    CHECK(back.as<T>().to_vector() == std::vector<T>{T(0), T(0), T(1), T(0), T(0)});
  };
  for_each_element_type(check_type);
}

TEST_CASE("from_dlpack: a read-only tensor is copied (copy unset), refused with copy=false; copy=true copies") {
  int deletions = 0;
  DLManagedTensorVersioned* read_only = produce({1, 2, 3}, {3}, {1}, &deletions);
  read_only->flags = DLPACK_FLAG_BITMASK_READ_ONLY;
  const void* data = read_only->dl_tensor.data;
  auto copied = xp::from_dlpack(read_only).as<double>();
  CHECK(deletions == 1);  // released as soon as it was copied
  CHECK(copied.raw_data() != data);
  CHECK(copied.to_vector() == std::vector<double>{1, 2, 3});
  copied.data()[0] = 10.0;  // the copy is the caller's own

  DLManagedTensorVersioned* refused = produce({1, 2, 3}, {3}, {1}, &deletions);
  refused->flags = DLPACK_FLAG_BITMASK_READ_ONLY;
  CHECK_THROWS_WITH_AS(xp::from_dlpack(refused, false),
                       "from_dlpack: the tensor is read-only (DLPACK_FLAG_BITMASK_READ_ONLY) and copy=false: "
                       "xparray arrays are writable, so a read-only tensor can only be copied",
                       xp::ValueError);
  CHECK(deletions == 2);

  DLManagedTensorVersioned* writable = produce({4, 5}, {2}, {1}, &deletions);
  const auto own = xp::from_dlpack(writable, true);
  CHECK(deletions == 3);
  CHECK(own.as<double>().to_vector() == std::vector<double>{4, 5});
}

TEST_CASE("from_dlpack: the older DLManagedTensor (no version, no flags) is read the same way") {
  int deletions = 0;
  {
    const auto a = xp::from_dlpack(produce<DLManagedTensor>({1, 2, 3, 4}, {2, 2}, {1, 2}, &deletions)).as<double>();
    CHECK(a.to_vector() == std::vector<double>{1, 3, 2, 4});
    CHECK(deletions == 0);
  }
  CHECK(deletions == 1);
}

TEST_CASE("from_dlpack: errors name the value and release the tensor") {
  int deletions = 0;
  const auto refuse = [&](auto change, const std::string& message, auto error) {
    CAPTURE(message);
    DLManagedTensorVersioned* managed = produce({1, 2, 3, 4}, {4}, {1}, &deletions);
    change(*managed);
    const int before = deletions;
    CHECK_THROWS_WITH_AS(xp::from_dlpack(managed), message.c_str(), typename decltype(error)::type);
    CHECK(deletions == before + 1);
  };
  refuse([](auto& m) { m.dl_tensor.dtype = {kDLBfloat, 32, 1}; },
         "from_dlpack: dtype bfloat32 is not supported (xparray has bool, int8..int64, uint8..uint64, float16, "
         "bfloat16, float32, float64, complex64, complex128)",
         std::type_identity<xp::TypeError>{});
  refuse([](auto& m) { m.dl_tensor.dtype = {kDLComplex, 32, 1}; },
         "from_dlpack: dtype complex32 is not supported (xparray has bool, int8..int64, uint8..uint64, float16, "
         "bfloat16, float32, float64, complex64, complex128)",
         std::type_identity<xp::TypeError>{});
  refuse([](auto& m) { m.dl_tensor.dtype = {kDLFloat, 32, 4}; },
         "from_dlpack: float32 x 4 lanes: vector types (lanes != 1) are not supported",
         std::type_identity<xp::TypeError>{});
  refuse([](auto& m) { m.dl_tensor.device = {kDLROCM, 0}; },
         "from_dlpack: kDLROCM (10), device 0 is not supported (kDLCPU, kDLCUDA and kDLCUDAHost are)",
         std::type_identity<xp::ValueError>{});
  refuse([](auto& m) { m.dl_tensor.device = {kDLCUDAManaged, 0}; },
         "from_dlpack: kDLCUDAManaged (13), device 0 is not supported (kDLCPU, kDLCUDA and kDLCUDAHost are)",
         std::type_identity<xp::ValueError>{});
  const int gpus = xp::num_gpus();
  refuse([&](auto& m) { m.dl_tensor.device = {kDLCUDA, gpus}; },
         "from_dlpack: kDLCUDA (2), device " + std::to_string(gpus) + ": this process sees " + std::to_string(gpus) +
             " GPU(s)",
         std::type_identity<xp::ValueError>{});
  refuse([](auto& m) { m.version = {2, 0}; }, "from_dlpack: DLPack version 2.0 (xparray reads 1.x)",
         std::type_identity<xp::ValueError>{});
  refuse([](auto& m) { m.dl_tensor.ndim = 17; }, "from_dlpack: 17 dimensions (xparray arrays have 0 to 16)",
         std::type_identity<xp::ValueError>{});
  refuse([](auto& m) { m.dl_tensor.shape[0] = -4; }, "from_dlpack: negative dimensions are not allowed: (-4,)",
         std::type_identity<xp::ValueError>{});
  refuse([](auto& m) { m.dl_tensor.shape[0] = std::int64_t{1} << 61; },
         "from_dlpack: an array of shape (2305843009213693952,) and dtype float64 is too big",
         std::type_identity<xp::ValueError>{});
  // Found by fuzz_dlpack: a C producer may store any int as the device type.
  refuse(
      [](auto& m) {
        const std::int32_t code = 134217731;
        std::memcpy(&m.dl_tensor.device.device_type, &code, sizeof code);
      },
      "from_dlpack: device type (134217731), device 0 is not supported (kDLCPU, kDLCUDA and kDLCUDAHost are)",
      std::type_identity<xp::ValueError>{});
  // The first element must be aligned, and byte_offset must not run off the address space.
  for (const std::uint64_t offset : {std::uint64_t{2}, ~std::uint64_t{0} - 4}) {
    DLManagedTensorVersioned* managed = produce({1, 2, 3, 4}, {4}, {1}, &deletions);
    managed->dl_tensor.byte_offset = offset;
    std::ostringstream data;
    data << managed->dl_tensor.data;
    const std::string message = offset == 2 ? "from_dlpack: the first element (data " + data.str() +
                                                  " + byte_offset 2) is not aligned to the 8 bytes of float64"
                                            : "from_dlpack: byte_offset " + std::to_string(offset) + " from data " +
                                                  data.str() + " runs past the end of the address space";
    const int before = deletions;
    CHECK_THROWS_WITH_AS(xp::from_dlpack(managed), message.c_str(), xp::ValueError);
    CHECK(deletions == before + 1);
  }
  refuse([](auto& m) { m.dl_tensor.data = nullptr; }, "from_dlpack: a tensor of shape (4,) with a null data pointer",
         std::type_identity<xp::ValueError>{});
  CHECK_THROWS_WITH_AS(xp::from_dlpack(static_cast<DLManagedTensorVersioned*>(nullptr)),
                       "from_dlpack: the tensor is a null pointer", xp::ValueError);
}

TEST_CASE("DLPack devices: kDLCUDAHost is cpu_pinned(0) both ways, kDLCPU is cpu(0) whatever its id") {
  int deletions = 0;
  DLManagedTensorVersioned* pinned = produce({1, 2}, {2}, {1}, &deletions);
  pinned->dl_tensor.device = {kDLCUDAHost, 0};
  CHECK(xp::from_dlpack(pinned).device() == xp::cpu_pinned(0));
  DLManagedTensorVersioned* host = produce({1, 2}, {2}, {1}, &deletions);
  host->dl_tensor.device = {kDLCPU, 3};
  CHECK(xp::from_dlpack(host).device() == xp::cpu(0));
  CHECK(deletions == 2);
}

XP_GPU_TEST_CASE("to_dlpack on a stream: the array's pending work is ordered before the consumer's stream") {
  const xp::Device device = xp::gpu(0);
  xp::Stream producer(device, true), consumer(device, true);
  xp::ndarray<float> a;
  {
    xp::StreamScope scope(producer);
    a = xp::full<float>({1 << 20}, 3.0f, device);
  }
  DLManagedTensorVersioned* managed = xp::to_dlpack(a, &consumer);
  CHECK(managed->dl_tensor.device.device_type == kDLCUDA);
  xp::ndarray<float> seen;
  {
    xp::StreamScope scope(consumer);
    seen = xp::from_dlpack(managed).as<float>() * 2.0f;
  }
  CHECK(xp::sum(seen).item() == doctest::Approx(6.0 * (1 << 20)));
}
