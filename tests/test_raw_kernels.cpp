// xp::RawKernel and xp::RawModule: what every build checks (GPU-only launches refused on CPUs naming
// the kernel, argument and module errors), and launches on a GPU (skipped without one). NVRTC compiles
// of raw sources for sm_80 and sm_90 are in test_nvrtc_kernels.cpp (CUDA builds).
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>

#include "cuda/cuda_raw_modules.hpp"
#include "cuda/cuda_user_kernels.hpp"
#include "device_cases.hpp"
#include "xp/xp.hpp"

namespace {

const char* const kScale = R"(
extern "C" __global__ void scale(float* x, float factor, long long n) {
  const long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (i < n) x[i] *= factor;
})";

// A template over the element type, and a block-wide sum through dynamic shared memory.
const char* const kTemplates = R"(
template <class T> __global__ void twice(T* x, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = x[i] + x[i];
}
extern "C" __global__ void block_sum(const float* x, float* out, int n) {
  extern __shared__ float partial[];
  float own = 0;
  for (int i = threadIdx.x; i < n; i += blockDim.x) own += x[i];
  partial[threadIdx.x] = own;
  __syncthreads();
  if (threadIdx.x == 0) {
    float total = 0;
    for (int t = 0; t < blockDim.x; ++t) total += partial[t];
    *out = total;
  }
})";

}  // namespace

TEST_CASE("raw kernels run on GPUs only: a CPU launch names the kernel") {
  const xp::RawKernel scale(kScale, "scale");
  CHECK(scale.name() == "scale");
  auto x = xp::ones<float>({4});
  CHECK_THROWS_WITH_AS(scale(xp::grid(1), xp::block(4), x, 2.0f, std::int64_t{4}),
                       "RawKernel 'scale': raw CUDA kernels run on GPUs only, not on cpu(0)", xp::NotImplementedError);
  CHECK(x.to_vector() == std::vector<float>{1, 1, 1, 1});  // nothing ran
  const auto y = xp::ones<float>({4}, xp::cpu(1));
  CHECK_THROWS_AS(scale(xp::grid(1), xp::block(4), x, y, std::int64_t{4}), xp::DeviceMismatchError);
}

TEST_CASE("RawModule: code or a path, name expressions with code only, files that cannot be read") {
  CHECK_THROWS_WITH_AS(xp::RawModule({}), "RawModule: give either code or a path (a CUBIN or PTX file), not neither",
                       xp::ValueError);
  CHECK_THROWS_AS(xp::RawModule({.code = kScale, .path = "kernels.cubin"}), xp::ValueError);
  CHECK_THROWS_AS(xp::RawModule({.path = "kernels.cubin", .name_expressions = {"f<float>"}}), xp::ValueError);
  CHECK_THROWS_WITH_AS(xp::RawModule({.path = "/nonexistent/kernels.cubin"}),
                       "RawModule: cannot read /nonexistent/kernels.cubin", xp::IOError);
  const xp::RawModule module({.code = kTemplates, .name_expressions = {"twice<float>", "twice<double>"}});
  const xp::RawKernel twice = module.get_function("twice<float>");
  CHECK(twice.name() == "twice<float>");
  CHECK_THROWS_AS(twice(xp::grid(1), xp::block(32), xp::ones<float>({8}), 8), xp::NotImplementedError);
}

XP_GPU_TEST_CASE("raw kernels on a GPU: extern C, templates, shared memory, a CUBIN file, missing names") {
  const xp::Device gpu = xp::gpu(0);
  auto x = xp::arange<float>(0, 1000, 1, gpu);
  const xp::RawKernel scale(kScale, "scale", {.options = {"--std=c++17"}});
  scale(xp::grid((1000 + 255) / 256), xp::block(256), x, 3.0f, std::int64_t{1000});
  const std::vector<float> scaled = x.to_vector();
  CHECK(scaled[0] == 0.0f);
  CHECK(scaled[999] == 2997.0f);

  const xp::RawModule module({.code = kTemplates, .name_expressions = {"twice<float>", "twice<double>"}});
  auto d = xp::arange<double>(0, 10, 1, gpu);
  module.get_function("twice<double>")(xp::grid(1), xp::block(32), d, 10);
  CHECK(d.to_vector()[9] == 18.0);
  const auto ones = xp::ones<float>({300}, gpu);
  auto total = xp::zeros<float>({1}, gpu);
  module.get_function("block_sum")(xp::grid(1), xp::block(64), ones, total, 300, xp::shared_mem(64 * sizeof(float)));
  CHECK(total.to_vector()[0] == 300.0f);
  CHECK_THROWS_AS(module.get_function("missing")(xp::grid(1), xp::block(1), ones), xp::ValueError);

  const auto compiled = xp::detail::compile_raw(kScale, {}, {}, xp::detail::cuda_architecture(gpu));
  const auto path = std::filesystem::temp_directory_path() / "xparray_raw_scale.cubin";
  std::ofstream(path, std::ios::binary) << compiled.cubin;
  const xp::RawModule loaded({.path = path.string()});
  std::filesystem::remove(path);
  loaded.get_function("scale")(xp::grid(4), xp::block(256), x, 0.5f, std::int64_t{1000});
  CHECK(x.to_vector()[999] == 1498.5f);
}
