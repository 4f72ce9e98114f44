#include <doctest/doctest.h>

#include <vector>

#include "device_cases.hpp"

namespace {
const std::vector<float> kValues{1, 2, 3, 4, 5, 6};
xp::ndarray<float> values_on(xp::Device device) { return xp::array<float>(kValues, xp::Shape(2, 3), device); }
}  // namespace

TEST_CASE("to_cpu returns a host array as it is") {
  const auto a = values_on(xp::cpu(1));
  CHECK(xp::to_cpu(a).shares_buffer_with(a));
  const xp::Stream stream(xp::cpu(1));
  CHECK(xp::to_cpu(a, &stream).shares_buffer_with(a));
  const xp::ndarray<> dynamic = a;
  CHECK(xp::to_cpu(dynamic).shares_buffer_with(a));
}

TEST_CASE("copy always copies, to any device or into an array") {
  const auto a = values_on(xp::cpu(0));
  const auto same = xp::copy(a);
  CHECK(!same.shares_buffer_with(a));
  CHECK(same.device() == xp::cpu(0));
  CHECK(same.to_vector() == kValues);
  const auto there = xp::copy(a, xp::cpu(2));
  CHECK(there.device() == xp::cpu(2));
  CHECK(there.to_vector() == kValues);
  const auto pinned = xp::copy(a.transpose(), xp::cpu_pinned(0));
  CHECK(pinned.device() == xp::cpu_pinned(0));
  CHECK(pinned.to_vector() == std::vector<float>{1, 4, 2, 5, 3, 6});

  const auto out = xp::zeros<float>({2, 3}, xp::cpu(3));
  const xp::Stream stream(xp::cpu(3));
  xp::copy(a, out, &stream);
  CHECK(out.to_vector() == kValues);
  CHECK_THROWS_AS(xp::copy(a, xp::zeros<float>({3, 2}, xp::cpu(3))), xp::ValueError);
}

TEST_CASE("a copy's stream must belong to one of its devices") {
  const auto a = values_on(xp::cpu(0));
  const xp::Stream elsewhere(xp::cpu(5));
  CHECK_THROWS_WITH_AS(xp::copy(a, xp::cpu(1), &elsewhere),
                       "copy: the stream is on cpu(5) but the copy goes from cpu(0) to cpu(1)",
                       xp::DeviceMismatchError);
  CHECK_THROWS_WITH_AS(xp::copy(a, std::nullopt, &elsewhere),
                       "copy: the stream is on cpu(5) but the array is on cpu(0)", xp::DeviceMismatchError);
  const xp::Stream source_side(xp::cpu(0));
  CHECK(xp::copy(a, xp::cpu(1), &source_side).to_vector() == kValues);
  const xp::Stream destination_side(xp::cpu(1));
  CHECK(xp::copy(a, xp::cpu(1), &destination_side).to_vector() == kValues);
}

TEST_CASE("to_gpu to a host device is a ValueError") {
  const auto a = values_on(xp::cpu(0));
  CHECK_THROWS_WITH_AS(xp::to_gpu(a, xp::cpu(1)), "to_gpu: cpu(1) is not a GPU", xp::ValueError);
}

XP_NO_GPU_TEST_CASE("to_gpu without a GPU: CudaError naming the target, or NotImplementedError without CUDA") {
  const auto a = values_on(xp::cpu(0));
  if (xp::built_with_cuda()) {
    CHECK_THROWS_WITH_AS(xp::to_gpu(a), doctest::Contains("gpu(0)"), xp::CudaError);
    const xp::DeviceScope scope(xp::gpu(1));  // the default target is the current GPU
    CHECK_THROWS_WITH_AS(xp::to_gpu(a), doctest::Contains("gpu(1)"), xp::CudaError);
  } else {
    CHECK_THROWS_WITH_AS(xp::to_gpu(a), "xparray was built without CUDA support: gpu(0) cannot be used",
                         xp::NotImplementedError);
  }
}

XP_GPU_TEST_CASE("to_gpu copies a host array to the GPU; one already there is returned as is") {
  const auto host = values_on(xp::cpu(0));
  const auto g = xp::to_gpu(host);
  CHECK(g.device() == xp::gpu(0));
  CHECK(g.to_vector() == kValues);
  CHECK(xp::to_gpu(g).shares_buffer_with(g));
  CHECK(xp::to_gpu(g, xp::gpu(0)).shares_buffer_with(g));
  CHECK(xp::to_gpu(host.transpose()).to_vector() == std::vector<float>{1, 4, 2, 5, 3, 6});
  const auto back = xp::to_cpu(g);
  CHECK(back.device() == xp::cpu(0));
  CHECK(back.to_vector() == kValues);
}

XP_GPU_TEST_CASE("to_gpu on a stream is asynchronous and staged: the source is free at once") {
  const xp::Stream stream(xp::gpu(0), /*non_blocking=*/true);
  const auto host = values_on(xp::cpu(0));
  const auto g = xp::to_gpu(host, xp::gpu(0), &stream);
  xp::full<float>({2, 3}, -1.0f, xp::cpu(0)).copyto(host);  // overwrite the source right away
  stream.synchronize();
  CHECK(g.to_vector() == kValues);
  CHECK(xp::to_cpu(g, &stream).to_vector() == kValues);
  const xp::Stream host_stream(xp::cpu(0));
  CHECK_THROWS_AS(xp::to_gpu(host, xp::gpu(0), &host_stream), xp::DeviceMismatchError);
}

XP_GPU_TEST_CASE("pinned host arrays copy asynchronously and are waited for before host use") {
  const xp::Stream stream(xp::gpu(0), /*non_blocking=*/true);
  const auto g = xp::to_gpu(values_on(xp::cpu(0)));
  const auto pinned = xp::copy(g, xp::cpu_pinned(0), &stream);
  CHECK(pinned.device() == xp::cpu_pinned(0));
  CHECK(pinned.to_vector() == kValues);  // waits for the copy
  const auto again = xp::to_gpu(pinned, xp::gpu(0), &stream);
  stream.synchronize();
  CHECK(again.to_vector() == kValues);
}

XP_MULTI_GPU_TEST_CASE("copies between GPUs", 2) {
  const auto g0 = xp::to_gpu(values_on(xp::cpu(0)), xp::gpu(0));
  const auto g1 = xp::to_gpu(g0, xp::gpu(1));
  CHECK(g1.device() == xp::gpu(1));
  CHECK(g1.to_vector() == kValues);
  const auto out = xp::zeros<float>({3, 2}, xp::gpu(1));
  g0.transpose().copyto(out);
  CHECK(out.to_vector() == std::vector<float>{1, 4, 2, 5, 3, 6});
  const xp::Stream on_gpu1(xp::gpu(1));
  CHECK(xp::copy(g0, xp::gpu(1), &on_gpu1).to_vector() == kValues);
}
