#pragma once
// One test body for every kind of device: XP_TEST_ON_DEVICES("name") { ... uses `device` ... }
// registers the body as three test cases, on cpu(0), cpu_pinned(0) and gpu(0). The GPU case is
// compiled in every build and skipped, visibly in doctest's summary, where no GPU is present; its
// results are checked against the same hand-computed values as the CPU ones.
#include <doctest/doctest.h>

#include "xp/xp.hpp"

#define XP_TEST_ON_DEVICES(name) XP_TEST_ON_DEVICES_IMPL(name, DOCTEST_ANONYMOUS(xp_device_test_))
#define XP_TEST_ON_DEVICES_IMPL(name, body)                                            \
  static void body(xp::Device device);                                                 \
  TEST_CASE(name " @cpu") { body(xp::cpu(0)); }                                        \
  TEST_CASE(name " @cpu_pinned") { body(xp::cpu_pinned(0)); }                          \
  TEST_CASE(name " @gpu" * doctest::skip(xp::num_gpus() == 0)) { body(xp::gpu(0)); }   \
  static void body([[maybe_unused]] xp::Device device)

// GPU-only tests: skipped where no GPU is present.
#define XP_GPU_TEST_CASE(name) TEST_CASE(name * doctest::skip(xp::num_gpus() == 0))
