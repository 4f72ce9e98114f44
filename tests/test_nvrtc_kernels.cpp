// Every kernel the user-kernel cases generate, for every dtype they use, compiled by NVRTC to CUBIN
// for sm_80 or sm_90 by turns: no GPU needed, and a kernel that does not compile fails here. A generated
// source has no code of its own that depends on the architecture: what does (the 2-byte floats' conversions,
// CUB's block reduction) is compiled for both, below and by the reductions among the kernels.
#include <doctest/doctest.h>

#include <algorithm>
#include <fstream>
#include <future>
#include <iterator>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "api/jit/compiled_kernels.hpp"
#include "cuda/cuda_raw_modules.hpp"
#include "cuda/cuda_user_kernels.hpp"
#include "printed_fusion.hpp"
#include "source_dir.hpp"
#include "user_kernel_cases.hpp"

TEST_CASE("user kernels: every generated kernel compiles with NVRTC, for sm_80 and sm_90 by turns") {
  std::mutex mutex;
  std::set<std::pair<std::string, std::string>> sources;  // (name, source), each source once
  xp::detail::set_cuda_source_observer([&](const std::string& name, const std::string& source) {
    const std::lock_guard lock(mutex);
    sources.emplace(name, source);
  });
  xp::clear_memo();  // every signature compiles (from the disk cache) again, and is observed
  run_elementwise_cases(xp::cpu(0));
  run_reduction_cases(xp::cpu(0));
  xp::detail::set_cuda_source_observer(nullptr);
  MESSAGE(sources.size(), " GPU kernels to compile, each for one of two architectures");
  CHECK(sources.size() >= 100);

  // One worker per core; each failure is reported with NVRTC's log. Each architecture compiles half the
  // kernels (NVRTC's front end takes most of a second per kernel: both for all was two minutes here).
  const std::vector<std::pair<std::string, std::string>> list(sources.begin(), sources.end());
  const std::size_t workers = std::max(1u, std::thread::hardware_concurrency());
  std::vector<std::string> failures;
  const auto work = [&](std::size_t first) {
    for (std::size_t k = first; k < list.size(); k += workers) {
      const char* arch = k % 2 == 0 ? "sm_80" : "sm_90";
      try {
        const std::string cubin = xp::detail::compile_cubin(list[k].first, list[k].second, arch);
        if (cubin.size() < 4 || cubin.compare(1, 3, "ELF") != 0) throw xp::Error("not a CUBIN");
      } catch (const xp::Error& e) {
        const std::lock_guard lock(mutex);
        failures.push_back(std::string(arch) + ": " + e.what());
      }
    }
  };
  std::vector<std::future<void>> others;
  for (std::size_t w = 1; w < workers; ++w) others.push_back(std::async(std::launch::async, work, w));
  work(0);
  for (auto& other : others) other.get();
  for (const std::string& failure : failures) FAIL_CHECK(failure);
  CHECK(failures.empty());
}

TEST_CASE("user kernels: NVRTC's errors are CompileErrors with its log and the numbered source") {
  try {
    xp::detail::compile_cubin("broken", "extern \"C\" __global__ void broken() { int x = ; }\n", "sm_80");
    FAIL("a kernel that does not compile gave a CUBIN");
  } catch (const xp::CompileError& e) {
    const std::string what = e.what();
    CHECK(what.find("kernel broken does not compile (NVRTC --gpu-architecture=sm_80)") != std::string::npos);
    CHECK(what.find("error") != std::string::npos);
    CHECK(what.find("   1  extern \"C\" __global__ void broken()") != std::string::npos);
  }
}

TEST_CASE("element types: the 2-byte floats compile with NVRTC for sm_80 and sm_90, as the JIT will see them") {
  std::ifstream file(test_source_dir().parent_path() / "kernels" / "xp" / "kernels" / "element_types.hpp");
  REQUIRE(file.good());
  const std::string header((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  const std::string source = header +
                             "extern \"C\" __global__ void convert(const float* in, xp::float16* h, xp::bfloat16* b,\n"
                             "                                    const double* d, float* out) {\n"
                             "  const int i = threadIdx.x;\n"
                             "  h[i] = xp::float16(in[i]);\n"
                             "  b[i] = xp::bfloat16(in[i]) * xp::bfloat16(d[i]);\n"
                             "  out[i] = float(h[i] + xp::float16(d[i])) + float(b[i]);\n"
                             "}\n";
  for (const char* arch : {"sm_80", "sm_90"}) {
    const std::string cubin = xp::detail::compile_cubin("convert", source, arch);
    CHECK(cubin.compare(1, 3, "ELF") == 0);
  }
}

TEST_CASE("raw modules: NVRTC compiles a user's source with its options and name expressions, sm_80 and sm_90") {
  const std::string source = R"(
template <class T> __global__ void fill(T* x, T value, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = value * TILE;
})";
  const std::vector<std::string> options{"--std=c++17", "-DTILE=2"};
  const std::vector<std::string> expressions{"fill<float>", "fill<double>"};
  for (const char* arch : {"sm_80", "sm_90"}) {
    INFO(arch);
    const xp::detail::RawCompiled compiled = xp::detail::compile_raw(source, options, expressions, arch);
    CHECK(compiled.cubin.compare(1, 3, "ELF") == 0);
    REQUIRE(compiled.lowered.size() == 2);
    CHECK(compiled.lowered[0].first == "fill<float>");
    CHECK(compiled.lowered[0].second.starts_with("_Z4fillIfEvPT_S0_i"));
    CHECK(compiled.lowered[1].second.starts_with("_Z4fillIdEvPT_S0_i"));
  }
  // The options reach NVRTC: without -DTILE the source does not compile, and the error carries the log.
  try {
    xp::detail::compile_raw(source, std::vector<std::string>{}, expressions, "sm_80");
    FAIL("compiled without TILE");
  } catch (const xp::CompileError& e) { CHECK(std::string(e.what()).find("TILE") != std::string::npos); }
}

TEST_CASE("fuse: printed kernels compile with NVRTC for sm_80 and sm_90 (constants from bits, kept results)") {
  std::mutex mutex;
  std::set<std::pair<std::string, std::string>> sources;
  xp::detail::set_cuda_source_observer([&](const std::string& name, const std::string& source) {
    const std::lock_guard lock(mutex);
    sources.emplace(name, source);
  });
  const auto print_and_run = [](const auto& function, const xp::ndarray<>& a, const xp::ndarray<>& b) {
    xp_test::printed_fusion(function, a, b, "fused_nvrtc")(a, b);
  };
  const auto f32 = xp::linspace<float>(-2, 2, 16);
  const auto f64 = xp::linspace<double>(-2, 2, 16);
  const auto i32 = xp::arange<std::int32_t>(16);
  print_and_run([](auto z, auto y) { return xp::exp(z + 2) * y - 1.5; }, f32, f64);
  print_and_run([](auto h, auto i) { return xp::where(h > 0, xp::frexp(h).first, xp::modf(h).first) + i; },
                xp::ndarray<>(f32).astype(xp::dtype::float16), i32);
  print_and_run([](auto c, auto i) { return xp::abs(xp::conj(c) * std::complex<float>(1, -2)) + (i >> 1); },
                xp::ndarray<>(f32).astype(xp::dtype::complex64), i32);
  print_and_run([](auto x, auto i) { return (x * 7).astype(xp::dtype::int16) * i + xp::around(x, -1); }, f64, i32);
  xp::detail::set_cuda_source_observer(nullptr);
  REQUIRE(sources.size() == 4);
  int k = 0;
  for (const auto& [name, source] : sources) {
    const char* arch = k++ % 2 == 0 ? "sm_80" : "sm_90";
    INFO(arch, "\n", source);
    CHECK(xp::detail::compile_cubin(name, source, arch).compare(1, 3, "ELF") == 0);
  }
}
