#pragma once
// One test body for every kind of device: XP_TEST_ON_DEVICES("name") { ... uses `device` ... }
// registers the body as three test cases, on cpu(0), cpu_pinned(0) and gpu(0). The GPU case is
// compiled in every build and skipped, visibly in doctest's summary, where no GPU is present; its
// results are checked against the same hand-computed values as the CPU ones.
//
// Every case that needs a GPU is in the test suite "gpu" (and "multi-gpu" for more than one), so
// scripts/gpu.sh can run them alone (under compute-sanitizer) and check that none of them skipped on a
// machine with a GPU: `xp_tests --test-suite=gpu`.
#include <doctest/doctest.h>

#include "xp/xp.hpp"

#define XP_TEST_ON_DEVICES(name) XP_TEST_ON_DEVICES_IMPL(name, DOCTEST_ANONYMOUS(xp_device_test_))
#define XP_TEST_ON_DEVICES_IMPL(name, body)                                                                       \
  static void body(xp::Device device);                                                                            \
  TEST_CASE(name " @cpu") { body(xp::cpu(0)); }                                                                   \
  TEST_CASE(name " @cpu_pinned") { body(xp::cpu_pinned(0)); }                                                     \
  TEST_CASE(name " @gpu" * doctest::test_suite("gpu") * doctest::skip(xp::num_gpus() == 0)) { body(xp::gpu(0)); } \
  static void body([[maybe_unused]] xp::Device device)

// GPU-only tests: skipped where no GPU is present.
#define XP_GPU_TEST_CASE(name) TEST_CASE(name* doctest::test_suite("gpu") * doctest::skip(xp::num_gpus() == 0))
// Tests that need `count` GPUs: skipped where fewer are present.
#define XP_MULTI_GPU_TEST_CASE(name, count) \
  TEST_CASE(name* doctest::test_suite("multi-gpu") * doctest::skip(xp::num_gpus() < (count)))
// Tests of what happens without a GPU: skipped where one is present.
#define XP_NO_GPU_TEST_CASE(name) TEST_CASE(name* doctest::skip(xp::num_gpus() > 0))
