#include <doctest/doctest.h>

#include <string>
#include <type_traits>

#include "xp/error.hpp"
#include "xp/shape.hpp"

TEST_CASE("every error derives from xp::Error, a std::runtime_error") {
  static_assert(std::is_base_of_v<std::runtime_error, xp::Error>);
  static_assert(std::is_base_of_v<xp::Error, xp::ValueError>);
  static_assert(std::is_base_of_v<xp::Error, xp::TypeError>);
  static_assert(std::is_base_of_v<xp::Error, xp::IndexError>);
  static_assert(std::is_base_of_v<xp::Error, xp::DeviceMismatchError>);
  static_assert(std::is_base_of_v<xp::Error, xp::OutOfMemoryError>);
  static_assert(std::is_base_of_v<xp::Error, xp::CudaError>);
  static_assert(std::is_base_of_v<xp::Error, xp::CompileError>);
  static_assert(std::is_base_of_v<xp::Error, xp::NotImplementedError>);
  static_assert(std::is_base_of_v<xp::Error, xp::InternalError>);
  CHECK_THROWS_AS(throw xp::TypeError("x"), xp::Error);
}

TEST_CASE("error messages join their parts") {
  const xp::ValueError e("cannot reshape array of size ", 6, " into shape ", xp::Shape(4, 2));
  CHECK(std::string(e.what()) == "cannot reshape array of size 6 into shape (4, 2)");
}

TEST_CASE("XP_CHECK throws the named error only when the condition fails") {
  const auto check = [](int n) { XP_CHECK(n > 0, xp::IndexError, "n must be positive, got ", n); };
  CHECK_NOTHROW(check(1));
  CHECK_THROWS_WITH_AS(check(-2), "n must be positive, got -2", xp::IndexError);
}

TEST_CASE("XP_ASSERT throws InternalError, which no user-error handler catches by mistake") {
  const auto invariant = [](int n) { XP_ASSERT(n % 2 == 0); };
  CHECK_NOTHROW(invariant(4));
  CHECK_THROWS_WITH_AS(invariant(3), doctest::Contains("xparray internal error: n % 2 == 0 failed at "),
                       xp::InternalError);
  static_assert(!std::is_base_of_v<xp::ValueError, xp::InternalError>);
}

TEST_CASE("a CudaError names the call, the device and the CUDA error") {
  const xp::CudaError e("cudaMalloc", 2, "cudaErrorMemoryAllocation", "out of memory", "gpu(1)");
  CHECK(std::string(e.what()) == "cudaMalloc failed on gpu(1): cudaErrorMemoryAllocation (out of memory)");
  CHECK(e.call() == "cudaMalloc");
  CHECK(e.code() == 2);
  CHECK(e.error_name() == "cudaErrorMemoryAllocation");
  const xp::CudaError anywhere("cudaGetDeviceCount", 35, "cudaErrorInsufficientDriver", "old driver", "");
  CHECK(std::string(anywhere.what()) == "cudaGetDeviceCount failed: cudaErrorInsufficientDriver (old driver)");
}
