// xp::dist under mpirun (2 and 3 processes on this machine's loopback): who is who, allreduce and
// broadcast of every dtype and of 0, 1, 1000 and 10^6 elements, buckets, errors.
#include <doctest/doctest.h>

#include <complex>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "../element_types.hpp"
#include "dist/buckets.hpp"
#include "mpirun_world.hpp"
#include "xp/creation.hpp"
#include "xp/dist.hpp"
#include "xp/index.hpp"

namespace {

int environment_int(const char* name) {
  const char* text = std::getenv(name);
  REQUIRE(text != nullptr);
  return std::atoi(text);
}

// Rank r's element i: small enough that the sum over a few ranks fits int8; bool: true on some.
template <class T>
T value_of(int rank, std::int64_t i) {
  if constexpr (std::is_same_v<T, bool>) return i % (rank + 2) == 0;
  else return static_cast<T>((rank + 1) * (i % 5 + 1));
}

template <class T>
T sum_over_ranks(int size, std::int64_t i) {
  if constexpr (std::is_same_v<T, bool>) {
    bool any = false;
    for (int r = 0; r < size; ++r) any = any || value_of<bool>(r, i);
    return any;
  } else {
    T total{};
    for (int r = 0; r < size; ++r) total = static_cast<T>(total + value_of<T>(r, i));
    return total;
  }
}

template <class T>
xp::ndarray<T> rank_values(int rank, std::int64_t n) {
  std::vector<T> values;
  for (std::int64_t i = 0; i < n; ++i) values.push_back(value_of<T>(rank, i));
  return xp::array<T>(values, {n}, xp::cpu(0));
}

template <class T>
std::int64_t mismatches(const xp::ndarray<T>& got, int size) {
  const std::vector<T> values = got.to_vector();
  std::int64_t wrong = 0;
  for (std::size_t i = 0; i < values.size(); ++i)
    if (values[i] != sum_over_ranks<T>(size, static_cast<std::int64_t>(i))) ++wrong;
  return wrong;
}

}  // namespace

TEST_CASE("dist: rank, size and local rank are mpirun's") {
  CHECK(xp::dist::initialized());
  CHECK(xp::dist::rank() == environment_int("OMPI_COMM_WORLD_RANK"));
  CHECK(xp::dist::size() == environment_int("OMPI_COMM_WORLD_SIZE"));
  CHECK(xp::dist::local_rank() == environment_int("OMPI_COMM_WORLD_LOCAL_RANK"));
  xp::dist::barrier();
}

TEST_CASE("dist: allreduce sums every dtype in place (bool: or), for 0, 1, 1000 and 10^6 elements") {
  const int rank = xp::dist::rank(), size = xp::dist::size();
  for_each_element_type([&]<class T>() {
    for (const std::int64_t n : {0, 1, 1000, 1000000}) {
      CAPTURE(xp::dtype_of<T>);
      CAPTURE(n);
      xp::ndarray<T> a = rank_values<T>(rank, n);
      xp::dist::allreduce({a});
      CHECK(a.size() == static_cast<std::size_t>(n));
      CHECK(mismatches(a, size) == 0);
    }
  });
}

TEST_CASE("dist: broadcast gives every dtype the root's values, for 0, 1, 1000 and 10^6 elements") {
  const int rank = xp::dist::rank(), root = xp::dist::size() - 1;
  for_each_element_type([&]<class T>() {
    for (const std::int64_t n : {0, 1, 1000, 1000000}) {
      CAPTURE(xp::dtype_of<T>);
      CAPTURE(n);
      xp::ndarray<T> a = rank == root ? rank_values<T>(root, n) : xp::zeros<T>({n}, xp::cpu(0));
      xp::dist::broadcast({a}, root);
      CHECK(a.to_vector() == rank_values<T>(root, n).to_vector());
    }
  });
}

TEST_CASE("dist: float16, bfloat16 (summed in float32), complex64 and complex128: allreduce and broadcast") {
  const int rank = xp::dist::rank(), size = xp::dist::size(), root = size - 1;
  const auto check_type = [&]<class T>() {
    for (const std::int64_t n : {0, 1, 1000, 1000000}) {
      CAPTURE(xp::dtype_of<T>);
      CAPTURE(n);
      xp::ndarray<T> a = rank_values<T>(rank, n);
      xp::dist::allreduce({a});
      CHECK(mismatches(a, size) == 0);
      xp::ndarray<T> b = rank == root ? rank_values<T>(root, n) : xp::zeros<T>({n}, xp::cpu(0));
      xp::dist::broadcast({b}, root);
      CHECK(b.to_vector() == rank_values<T>(root, n).to_vector());
    }
  };
  check_type.operator()<xp::float16>();
  check_type.operator()<xp::bfloat16>();
  check_type.operator()<std::complex<float>>();
  check_type.operator()<std::complex<double>>();
  // Beyond float16's integers (2048): 1000.5 from each rank sums to 1000.5 * size rounded, as float32 adds it.
  auto large = xp::full<xp::float16>({4}, xp::float16(1000.5f), xp::cpu(0));
  xp::dist::allreduce({large});
  float want = 1000.5f;
  for (int r = 1; r < size; ++r) want = static_cast<float>(xp::float16(want + 1000.5f));
  CHECK(large.astype<float>().to_vector() == std::vector<float>(4, want));
}

TEST_CASE("dist: a list of arrays: views back to back in one buffer, strided views, other dtypes, many buckets") {
  const int rank = xp::dist::rank(), size = xp::dist::size();
  const double ranks_sum = size * (size + 1) / 2.0;  // sum of (rank + 1)
  // Two views lying back to back in one buffer (summed in place), a strided view (through the bucket
  // buffer), a float64 array (its own bucket), and two arrays of 4M float32 (16 MiB each: two buckets).
  auto whole = xp::full<float>({30}, static_cast<float>(rank + 1), xp::cpu(0));
  xp::ndarray<> front = whole(xp::slice(0, 10)), back = whole(xp::slice(10, 30)).reshape({4, 5});
  auto wide = xp::full<float>({12}, static_cast<float>(rank + 1), xp::cpu(0));
  xp::ndarray<> every_other = wide(xp::slice(0, 12, 2));
  auto doubles = xp::full<double>({3}, 0.5 * (rank + 1), xp::cpu(0));
  auto big1 = xp::full<float>({4 << 20}, static_cast<float>(rank + 1), xp::cpu(0));
  auto big2 = xp::full<float>({4 << 20}, static_cast<float>(2 * (rank + 1)), xp::cpu(0));
  xp::dist::allreduce({front, every_other, doubles, back, big1, big2});
  const auto all_equal = [](const std::vector<float>& v, float x) {
    for (float e : v)
      if (e != x) return false;
    return true;
  };
  const auto sum = static_cast<float>(ranks_sum);
  CHECK(all_equal(whole.to_vector(), sum));
  const std::vector<float> w = wide.to_vector();
  for (std::size_t i = 0; i < w.size(); ++i) CHECK(w[i] == (i % 2 == 0 ? sum : static_cast<float>(rank + 1)));
  CHECK(doubles.to_vector() == std::vector<double>(3, 0.5 * ranks_sum));
  CHECK(all_equal(big1.to_vector(), sum));
  CHECK(all_equal(big2.to_vector(), 2 * sum));
}

TEST_CASE("dist: buckets group by device and dtype in order, up to the capacity, an oversized array alone") {
  using xp::dist::detail::BucketMember;
  const std::size_t mib = 1 << 20;
  const std::vector<BucketMember> members{
      {xp::cpu(0), xp::dtype::float32, 10 * mib}, {xp::cpu(0), xp::dtype::float64, 1 * mib},
      {xp::cpu(0), xp::dtype::float32, 10 * mib}, {xp::cpu(0), xp::dtype::float32, 10 * mib},
      {xp::cpu(0), xp::dtype::float32, 0},        {xp::cpu(0), xp::dtype::float32, 30 * mib},
      {xp::gpu(0), xp::dtype::float32, 1 * mib}};
  const std::vector<std::vector<std::size_t>> expected{{0, 2}, {3}, {5}, {1}, {6}};
  CHECK(xp::dist::detail::plan_buckets(members, 25 * mib) == expected);
  CHECK(xp::dist::detail::plan_buckets({}, 25 * mib).empty());
}

TEST_CASE("dist: errors name the values") {
  auto a = xp::zeros<float>({2}, xp::cpu(0));
  CHECK_THROWS_WITH_AS(xp::dist::broadcast({a}, xp::dist::size()),
                       ("xp::dist::broadcast: root " + std::to_string(xp::dist::size()) + " is not a rank of " +
                        std::to_string(xp::dist::size()))
                           .c_str(),
                       xp::ValueError);
  CHECK_THROWS_WITH_AS(xp::dist::set_timeout(std::chrono::seconds(0)),
                       "xp::dist::set_timeout: the limit must be positive, got 0 s", xp::ValueError);
  int argc = 0;
  char** argv = nullptr;
  CHECK_THROWS_WITH_AS(xp::dist::init(argc, argv), "xp::dist::init: already initialized", xp::RuntimeError);
  const auto previous = xp::dist::timeout();
  xp::dist::set_timeout(std::chrono::seconds(5));
  CHECK(xp::dist::timeout().count() == 5.0);
  xp::dist::set_timeout(previous);
}

namespace {

// One GPU per process (NCCL refuses two ranks on one GPU), in a build with NCCL.
bool gpu_per_process() { return xp::built_with_nccl() && xp::num_gpus() >= mpirun_world_size(); }

}  // namespace

TEST_CASE(
    "dist: GPU arrays through NCCL (float32, int64, float16, complex64; int16 and bool through host memory), lists "
    "in place" *
    doctest::skip(!gpu_per_process())) {
  const int rank = xp::dist::rank(), size = xp::dist::size();
  const xp::Device gpu = xp::gpu(xp::dist::local_rank());
  const auto check_type = [&]<class T>() {
    for (const std::int64_t n : {1000, 1000000}) {
      CAPTURE(xp::dtype_of<T>);
      CAPTURE(n);
      xp::ndarray<T> a = rank_values<T>(rank, n).copyto(gpu);
      xp::dist::allreduce({a});
      CHECK(mismatches(a.copyto(xp::cpu(0)), size) == 0);
      const int root = size - 1;
      xp::ndarray<T> b = rank == root ? rank_values<T>(root, n).copyto(gpu) : xp::zeros<T>({n}, gpu);
      xp::dist::broadcast({b}, root);
      CHECK(b.to_vector() == rank_values<T>(root, n).to_vector());
    }
  };
  check_type.operator()<float>();
  check_type.operator()<std::int64_t>();
  check_type.operator()<std::int16_t>();
  check_type.operator()<bool>();
  check_type.operator()<xp::float16>();
  check_type.operator()<std::complex<float>>();
  // Views back to back in one GPU buffer (summed in place) and a strided view (through a GPU bucket buffer).
  auto whole = xp::full<float>({30}, static_cast<float>(rank + 1), gpu);
  auto wide = xp::full<float>({12}, static_cast<float>(rank + 1), gpu);
  xp::dist::allreduce({whole(xp::slice(0, 10)), wide(xp::slice(0, 12, 2)), whole(xp::slice(10, 30))});
  const auto sum = static_cast<float>(size * (size + 1) / 2);
  CHECK(whole.to_vector() == std::vector<float>(30, sum));
  const std::vector<float> w = wide.to_vector();
  for (std::size_t i = 0; i < w.size(); ++i) CHECK(w[i] == (i % 2 == 0 ? sum : static_cast<float>(rank + 1)));
}
