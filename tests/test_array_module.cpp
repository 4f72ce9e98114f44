#include <doctest/doctest.h>

#include <thrust/sort.h>

#include <cmath>
#include <type_traits>
#include <vector>

#include "device_cases.hpp"
#include "xp/thrust.hpp"

XP_TEST_ON_DEVICES("get_array_module binds the operands' device") {
  const auto x = xp::array<float>({-1, 0, 2}, device);
  const auto y = xp::ones<float>({3}, device);
  const auto m = xp::get_array_module(x, 2.0, y);
  CHECK(m.device() == device);
  CHECK(m.is_gpu() == device.is_gpu());
  const auto z = m.zeros<float>({2, 2});
  CHECK(z.device() == device);
  CHECK(z.to_vector() == std::vector<float>(4, 0));
  CHECK(m.arange<int>(0, 3).device() == device);
  CHECK(m.array<double>({1, 2}).device() == device);
  CHECK(m.uniform<float>(0, 1, {5}).device() == device);
  const auto e = m.exp(x);
  CHECK(e.to_vector()[1] == 1.0f);
  CHECK(m.sum(m.maximum(x, 0.0f)).item() == 2.0f);
  CHECK(m.add(x, y).to_vector() == std::vector<float>{0, 1, 3});
  CHECK(m.nanmax(m.divide(x, 0.0f)).item() == INFINITY);  // {-inf, NaN, inf}
  CHECK(m.ptp(x).item() == 3.0f);
  CHECK(m.trace(m.diag(x)).item() == 1.0f);
}

TEST_CASE("get_array_module: mismatches, no arrays, and functions checked against the module") {
  const auto a = xp::zeros<float>({2}, xp::cpu(0));
  const auto b = xp::zeros<float>({2}, xp::cpu(1));
  CHECK_THROWS_WITH_AS(xp::get_array_module(a, 1, b),
                       "get_array_module: argument 0 is on cpu(0) but argument 2 is on cpu(1)",
                       xp::DeviceMismatchError);
  CHECK(xp::get_array_module(1, 2.5).device() == xp::cpu(0));
  CHECK(xp::get_array_module().device() == xp::cpu(0));
  const auto m = xp::get_array_module(a);
  CHECK_THROWS_WITH_AS(m.exp(b), "exp: argument 0 is on cpu(1) but the module is bound to cpu(0)",
                       xp::DeviceMismatchError);
}

TEST_CASE("visit_backend turns a run-time device into a compile-time tag") {
  const auto tag_of = [](xp::Device d) {
    return xp::visit_backend(d, [](auto backend) { return decltype(backend)::is_gpu; });
  };
  CHECK(!tag_of(xp::cpu(0)));
  CHECK(!tag_of(xp::cpu_pinned(1)));
  static_assert(
      std::is_same_v<decltype(xp::execution_policy(xp::cpu_backend{})), std::decay_t<decltype(thrust::omp::par)>>);
  if (xp::num_gpus() == 0 && xp::built_with_cuda())
    CHECK_THROWS_AS(tag_of(xp::gpu(0)), xp::CudaError);  // the GPU must exist for its tag
}

XP_GPU_TEST_CASE("visit_backend gives each GPU the CUDA tag with its ordinal") {
  for (int id = 0; id < xp::num_gpus(); ++id) {
    CAPTURE(id);
    const auto seen = xp::visit_backend(xp::gpu(id), [](auto backend) {
      if constexpr (decltype(backend)::is_gpu) return backend.device_id;
      else return -1;
    });
    CHECK(seen == id);
  }
}

TEST_CASE("one Thrust call runs through the backend's execution policy") {
  for (const xp::Device device : {xp::cpu(0), xp::cpu_pinned(0)}) {
    const auto a = xp::array<int>({5, 1, 4, 2, 3}, device);
    xp::visit_backend(a.device(), [&](auto backend) {
      if constexpr (!decltype(backend)::is_gpu)
        thrust::sort(xp::execution_policy(backend), a.data(), a.data() + a.size());
    });
    CHECK(a.to_vector() == std::vector<int>{1, 2, 3, 4, 5});
  }
}
