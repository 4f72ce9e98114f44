#include <doctest/doctest.h>

#include <sstream>
#include <string>
#include <thread>
#include <unordered_set>

#include "device_cases.hpp"
#include "xp/xp.hpp"

TEST_CASE("devices print and parse as MXNet contexts") {
  CHECK(xp::cpu().str() == "cpu(0)");
  CHECK(xp::gpu(1).str() == "gpu(1)");
  CHECK(xp::cpu_pinned(0).str() == "cpu_pinned(0)");
  std::ostringstream out;
  out << xp::cpu() << ", " << xp::gpu() << ", " << xp::gpu(1);
  CHECK(out.str() == "cpu(0), gpu(0), gpu(1)");

  CHECK(xp::Device("cpu") == xp::cpu(0));
  CHECK(xp::Device("cpu(3)") == xp::cpu(3));
  CHECK(xp::Device("gpu:1") == xp::gpu(1));
  CHECK(xp::Device("gpu(1)") == xp::gpu(1));
  CHECK(xp::Device("cpu_pinned(0)") == xp::cpu_pinned(0));
  CHECK(xp::Device("cpu_pinned") == xp::cpu_pinned(0));
  CHECK(xp::Device(xp::DeviceType::gpu, 2) == xp::gpu(2));
  CHECK(xp::gpu(1).type() == xp::DeviceType::gpu);
  CHECK(xp::gpu(1).id() == 1);
  CHECK(xp::Context(xp::cpu(2)) == xp::cpu(2));
}

TEST_CASE("bad device specs and ids are ValueErrors") {
  for (const char* spec : {"", "tpu", "gpu(", "gpu()", "gpu(x)", "gpu:", "gpu:1x", "gpu(1", "GPU(0)", "cpu (0)",
                           "gpu(-1)", "gpu:-1", "gpu(99)"})
    CHECK_THROWS_AS(xp::Device{spec}, xp::ValueError);
  CHECK_THROWS_WITH_AS(xp::gpu(-1), "device id -1 is out of range [0, 64)", xp::ValueError);
  CHECK_THROWS_AS(xp::cpu(64), xp::ValueError);
  CHECK_THROWS_WITH_AS(xp::Device(static_cast<xp::DeviceType>(7)), "unknown device type 7", xp::ValueError);
  CHECK_THROWS_WITH_AS(xp::Device("tpu"), doctest::Contains("invalid device 'tpu': expected cpu, gpu or cpu_pinned"),
                       xp::ValueError);
}

TEST_CASE("devices compare and hash by type and id; cpu(i) are distinct") {
  CHECK(xp::cpu(0) != xp::cpu(1));
  CHECK(xp::cpu(0) != xp::cpu_pinned(0));
  CHECK(xp::cpu(0) != xp::gpu(0));
  const std::unordered_set<xp::Device> set{xp::cpu(0), xp::cpu(1), xp::gpu(0), xp::cpu_pinned(0), xp::cpu(0)};
  CHECK(set.size() == 4);
  CHECK(xp::cpu(0).is_host());
  CHECK(xp::cpu_pinned(0).is_host());
  CHECK(!xp::gpu(0).is_host());
}

TEST_CASE("the current device is cpu(0) until a DeviceScope, which nests and restores") {
  CHECK(xp::current_device() == xp::cpu(0));
  {
    const xp::DeviceScope outer(xp::gpu(1));
    CHECK(xp::current_device() == xp::gpu(1));
    {
      const xp::DeviceScope inner(xp::cpu(2));
      CHECK(xp::current_device() == xp::cpu(2));
    }
    CHECK(xp::current_device() == xp::gpu(1));
  }
  CHECK(xp::current_device() == xp::cpu(0));
}

TEST_CASE("the current device is per thread") {
  const xp::DeviceScope scope(xp::cpu(3));
  xp::Device seen_in_thread;
  xp::Device set_in_thread;
  std::thread worker([&] {
    seen_in_thread = xp::current_device();
    const xp::DeviceScope inner(xp::cpu(5));
    set_in_thread = xp::current_device();
  });
  worker.join();
  CHECK(seen_in_thread == xp::cpu(0));
  CHECK(set_in_thread == xp::cpu(5));
  CHECK(xp::current_device() == xp::cpu(3));
}

TEST_CASE("creation routines use the current device") {
  const xp::DeviceScope scope(xp::cpu(1));
  CHECK(xp::zeros<float>({2}).device() == xp::cpu(1));
  CHECK(xp::array<float>({1, 2}).context() == xp::cpu(1));
  CHECK(xp::zeros<float>({2}, xp::cpu(2)).device() == xp::cpu(2));
}

TEST_CASE("get_device_from_id and get_device_from_array") {
  CHECK(xp::get_device_from_id(1) == xp::gpu(1));
  CHECK(xp::get_device_from_id(0) == xp::gpu(0));
  CHECK(xp::get_device_from_id(-1) == xp::cpu(0));
  const auto a = xp::zeros<float>({2}, xp::cpu(2));
  const auto b = xp::zeros<int>({2}, xp::cpu(3));
  CHECK(xp::get_device_from_array(a, b) == xp::cpu(2));
  CHECK(xp::get_device_from_array(1, "x", b, a) == xp::cpu(3));
  CHECK(xp::get_device_from_array(1.5) == xp::cpu(0));
  CHECK(xp::get_device_from_array() == xp::cpu(0));
}

TEST_CASE("num_gpus never throws; it is 0 on this machine") {
  CHECK_NOTHROW((void)xp::num_gpus());
  if (!xp::built_with_cuda()) CHECK(xp::num_gpus() == 0);
  if (!xp::built_with_cuda()) CHECK_FALSE(xp::built_with_nccl());
  MESSAGE("built with CUDA: " << xp::built_with_cuda() << ", NCCL: " << xp::built_with_nccl()
                              << ", GPUs: " << xp::num_gpus());
}

TEST_CASE("host devices report host memory, synchronize and empty their caches") {
  const xp::MemoryInfo info = xp::cpu(0).memory_info();
  CHECK(info.total > 0);
  CHECK(info.free > 0);
  CHECK(info.free <= info.total);
  CHECK_NOTHROW(xp::cpu(0).synchronize());
  CHECK_NOTHROW(xp::synchronize(xp::cpu_pinned(0)));

  const xp::Device device = xp::cpu(6);
  xp::MemoryPool& pool = xp::get_default_memory_pool(device);
  { const auto a = xp::zeros<float>({1000}, device); }
  CHECK(pool.free_bytes() >= 4000);
  device.empty_cache();
  CHECK(pool.free_bytes() == 0);
  CHECK(pool.total_bytes() == 0);
}

XP_NO_GPU_TEST_CASE("a GPU that is not there is an error naming it") {
  if (xp::built_with_cuda()) {
    // The CUDA runtime is linked in; with no driver or device it reports the CUDA error.
    CHECK_THROWS_WITH_AS(xp::zeros<float>({3}, xp::gpu(0)), doctest::Contains("on gpu(0): cudaError"), xp::CudaError);
    CHECK_THROWS_WITH_AS(xp::gpu_memory_info(0), doctest::Contains("gpu(0)"), xp::CudaError);
    CHECK_THROWS_AS(xp::gpu(1).synchronize(), xp::CudaError);
    CHECK_THROWS_AS(xp::Stream(xp::gpu(0)), xp::CudaError);
  } else {
    CHECK_THROWS_WITH_AS(xp::zeros<float>({3}, xp::gpu(0)), doctest::Contains("xparray was built without CUDA support"),
                         xp::NotImplementedError);
    CHECK_THROWS_AS(xp::gpu_memory_info(0), xp::NotImplementedError);
    CHECK_THROWS_AS(xp::gpu(1).synchronize(), xp::NotImplementedError);
    CHECK_THROWS_AS(xp::Stream(xp::gpu(0)), xp::NotImplementedError);
  }
}
