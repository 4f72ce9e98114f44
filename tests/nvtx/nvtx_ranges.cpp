// NVTX ranges seen by a tool: tests/nvtx/recorder.cpp, loaded by NVTX from NVTX_INJECTION64_PATH as
// Nsight Systems would be. ctest runs this twice: with XP_NVTX=1 every operation is a range named after
// it, nested as the calls are; without it NVTX is never called, so the tool is never even loaded.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <dlfcn.h>
#include <doctest/doctest.h>

#include <cstdlib>
#include <cstring>
#include <string>

#include "xp/kvstore.hpp"
#include "xp/profile.hpp"
#include "xp/xp.hpp"

namespace {

bool requested() {
  const char* value = std::getenv("XP_NVTX");
  return value != nullptr && std::strcmp(value, "1") == 0;
}

// The recorder, if NVTX loaded it.
void* recorder() {
  const char* path = std::getenv("NVTX_INJECTION64_PATH");
  REQUIRE(path != nullptr);
  return dlopen(path, RTLD_NOW | RTLD_NOLOAD);
}

// The events since the last call: "xparray:add;pop;...".
std::string take_events() {
  void* handle = recorder();
  if (!handle) return "";
  const auto events = reinterpret_cast<int (*)(char*, int)>(dlsym(handle, "xp_nvtx_events"));
  const auto clear = reinterpret_cast<void (*)()>(dlsym(handle, "xp_nvtx_clear"));
  REQUIRE((events && clear));
  std::string text(1 << 16, '\0');
  events(text.data(), static_cast<int>(text.size()));
  clear();
  dlclose(handle);
  return text.c_str();
}

void run_operations() {
  const auto a = xp::arange<float>(0, 6, 1, xp::cpu(0)).reshape({2, 3});
  const auto b = xp::full<float>({2, 3}, 2.0f, xp::cpu(0));
  const auto c = xp::add(a, b);
  const auto s = xp::sum(c);
  const auto m = xp::matmul(a, xp::transpose(b));
  const auto moved = a.copyto(xp::cpu_pinned(0));
  xp::ElementwiseKernel squared_diff("T x, T y", "T z", "z = (x - y) * (x - y)", "squared_diff");
  const auto d = squared_diff(a, b);
  const auto r = xp::random::uniform<float>(0.f, 1.f, {4}, xp::cpu(0));
  const auto t = xp::transform([](float x) { return x * x; }, a);
  (void)s, (void)m, (void)moved, (void)d, (void)r, (void)t;
}

}  // namespace

TEST_CASE("XP_NVTX=1: each operation is a range named after it, in the xparray domain" * doctest::skip(!requested())) {
  CHECK(xp::profiling_enabled());
  take_events();
  run_operations();
  CHECK(take_events() ==
        "xparray:arange;pop;xparray:full;pop;xparray:add;pop;xparray:sum;pop;xparray:matmul;pop;"
        "xparray:copyto;pop;xparray:squared_diff;pop;xparray:random.uniform;pop;xparray:transform;pop");
  {
    const xp::profile_range step("training step");
    const auto x = xp::full<float>({3}, 1.0f, xp::cpu(0));
    const auto y = x.astype<double>();
  }
  CHECK(take_events() == "xparray:training step;xparray:full;pop;xparray:astype;pop;pop");
}

TEST_CASE("without XP_NVTX=1 nothing calls NVTX: the tool is never loaded" * doctest::skip(requested())) {
  CHECK_FALSE(xp::profiling_enabled());
  run_operations();
  { const xp::profile_range step("training step"); }
  CHECK(recorder() == nullptr);
}
