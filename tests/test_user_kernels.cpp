// Run-time user kernels (xp::ElementwiseKernel, xp::ReductionKernel): CuPy's cases on every device,
// CuPy's errors, and the caches (in memory, on disk, under threads).
#include <doctest/doctest.h>

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "api/jit/compile_notice.hpp"
#include "captured_stderr.hpp"
#include "core/kernel_disk_cache.hpp"
#include "cpu/host_compiler.hpp"
#include "device_cases.hpp"
#include "scoped_env.hpp"
#include "temporary_cache.hpp"
#include "user_kernel_cases.hpp"
#include "xp/warnings.hpp"

extern char** environ;

namespace {

xp::ElementwiseKernel fresh_squared_diff(const std::string& name = "squared_diff_fresh") {
  return xp::ElementwiseKernel("T x, T y", "T z", "z = (x - y) * (x - y)", name);
}

}  // namespace

XP_TEST_ON_DEVICES("user kernels: CuPy's elementwise cases") { run_elementwise_cases(device); }

XP_TEST_ON_DEVICES("user kernels: CuPy's reduction cases") { run_reduction_cases(device); }

TEST_CASE("user kernels: argument errors, with CuPy's messages") {
  const auto k = fresh_squared_diff();
  const auto x = xp::arange<float>(10).reshape({2, 5});
  const auto y = xp::arange<float>(5);
  CHECK_THROWS_WITH_AS(k(x), doctest::Contains("Wrong number of arguments for squared_diff_fresh"), xp::TypeError);
  CHECK_THROWS_WITH_AS(k(x, y, xp::zeros<float>({5})), doctest::Contains("Out shape is mismatched"), xp::ValueError);
  CHECK_THROWS_WITH_AS(k(x, y, xp::zeros<double>({2, 5})), doctest::Contains("Type is mismatched. x float32 float64 T"),
                       xp::TypeError);
  CHECK_THROWS_WITH_AS(k(x, xp::arange<std::int32_t>(5)), doctest::Contains("Type is mismatched. y int32 float32 T"),
                       xp::TypeError);
  CHECK_THROWS_WITH_AS(k(x, y, 1.0f), doctest::Contains("output arguments must be arrays"), xp::TypeError);
  CHECK_THROWS_AS(k(x, xp::arange<float>(5, xp::cpu(1))), xp::DeviceMismatchError);
  CHECK_THROWS_AS(k(x, xp::arange<float>(3)), xp::ValueError);  // shapes do not broadcast

  // size: only when every array is raw; without a non-raw array, it is needed.
  CHECK_THROWS_WITH_AS(k(x, y, xp::size(10)),
                       doctest::Contains("Specified 'size' can be used only if all of the ndarray are 'raw'."),
                       xp::ValueError);
  const xp::ElementwiseKernel raw_add("raw T x, raw T y", "raw T z", "z[i] = x[i] + y[i]", "raw_add_errors");
  auto z = xp::zeros<float>({5});
  CHECK_THROWS_WITH_AS(raw_add(y, y, z), doctest::Contains("Loop size is undecided."), xp::ValueError);
  const xp::ElementwiseKernel to_raw("T x", "raw T y", "y[i] = x", "to_raw");
  CHECK_THROWS_WITH_AS(to_raw(y), doctest::Contains("Output array size is Undecided"), xp::ValueError);
  // Scalars alone do not bind a placeholder.
  const xp::ElementwiseKernel scalars("T x", "raw T y", "y[i] = x", "scalars_only");
  CHECK_THROWS_WITH_AS(scalars(1.0f, xp::size(3)), doctest::Contains("Cannot determine the type of T"), xp::TypeError);

  // block_size must be positive, at the call and in the options.
  CHECK_THROWS_WITH_AS(k(x, y, xp::block_size(0)), doctest::Contains("block_size must be greater than zero"),
                       xp::ValueError);
  xp::KernelOptions zero_block;
  zero_block.block_size = 0;
  CHECK_THROWS_AS(xp::ElementwiseKernel("T x", "T y", "y = x", "zero_block", zero_block), xp::ValueError);
  CHECK(k(x, y, xp::block_size(64)).shape() == xp::Shape{2, 5});  // a positive one is accepted on CPUs
}

TEST_CASE("user kernels: names and parameter lists") {
  CHECK_THROWS_WITH_AS(xp::ElementwiseKernel("T x", "T y", "y = x", "1abc"), doctest::Contains("Invalid kernel name"),
                       xp::ValueError);
  CHECK_THROWS_WITH_AS(xp::ElementwiseKernel("T x", "T y", "y = x", "my kernel"),
                       doctest::Contains("Invalid kernel name"), xp::ValueError);
  CHECK_THROWS_WITH_AS(xp::ElementwiseKernel("T x", "T y", "y = x", ""), doctest::Contains("Invalid kernel name"),
                       xp::ValueError);
  CHECK_THROWS_WITH_AS(xp::ElementwiseKernel("T i", "T y", "y = i", "k"),
                       doctest::Contains("Can not use 'i' as a parameter name"), xp::ValueError);
  CHECK_THROWS_WITH_AS(xp::ElementwiseKernel("T _ind", "T y", "y = 1", "k"),
                       doctest::Contains("Can not use '_ind' as a parameter name"), xp::ValueError);
  CHECK_THROWS_WITH_AS(xp::ReductionKernel("T a", "T y", "a", "a + b", "y = a", "0", "k"),
                       doctest::Contains("Can not use 'a' as a parameter name"), xp::ValueError);
  CHECK_THROWS_WITH_AS(xp::ElementwiseKernel("T x, T x", "T y", "y = x", "k"),
                       doctest::Contains("Duplicated parameter name x"), xp::ValueError);
  CHECK_THROWS_WITH_AS(xp::ElementwiseKernel("float x", "T y", "y = x", "k"), doctest::Contains("Wrong type float"),
                       xp::ValueError);
  CHECK_THROWS_WITH_AS(xp::ElementwiseKernel("T", "T y", "y = 1", "k"), doctest::Contains("Syntax error: T"),
                       xp::ValueError);
  CHECK_THROWS_WITH_AS(xp::ElementwiseKernel("const T x", "T y", "y = x", "k"),
                       doctest::Contains("Unknown keyword \"const\""), xp::ValueError);
  CHECK_THROWS_WITH_AS(xp::ElementwiseKernel("T 2x", "T y", "y = 1", "k"),
                       doctest::Contains("Invalid parameter name 2x"), xp::ValueError);
}

TEST_CASE("user kernels: reduction errors, with CuPy's messages") {
  const xp::ReductionKernel my_sum("T x", "T out", "x", "a + b", "out = a", "0", "my_sum_errors");
  const auto m = xp::zeros<float>({2, 3});
  CHECK_THROWS_WITH_AS(my_sum(m, xp::axis(2)), doctest::Contains("axis 2 is out of bounds for array of dimension 2"),
                       xp::ValueError);
  CHECK_THROWS_WITH_AS(my_sum(m, xp::axis({-3})), doctest::Contains("out of bounds"), xp::ValueError);
  CHECK_THROWS_WITH_AS(my_sum(m, xp::axis({0, 7})), doctest::Contains("out of bounds"), xp::ValueError);
  CHECK_THROWS_WITH_AS(my_sum(m, xp::axis({1, 1})), doctest::Contains("duplicate value in 'axis'"), xp::ValueError);
  CHECK_THROWS_WITH_AS(my_sum(m, xp::axis({0, -2})), doctest::Contains("duplicate value in 'axis'"), xp::ValueError);
  CHECK_THROWS_WITH_AS(my_sum(m, xp::zeros<float>({2})), doctest::Contains("Out shape is mismatched"), xp::ValueError);
  auto out = xp::zeros<float>({3});
  my_sum(xp::ones<float>({2, 3}), out, xp::axis(0));
  CHECK(out.to_vector() == std::vector<float>{2, 2, 2});
  const xp::ReductionKernel no_identity("T x", "T y", "x", "max(a, b)", "y = a", "", "no_identity");
  CHECK_THROWS_WITH_AS(no_identity(xp::zeros<float>({2, 0}), xp::axis(1)),
                       doctest::Contains("zero-size array to reduction operation no_identity which has no identity"),
                       xp::ValueError);
  CHECK(no_identity(xp::zeros<float>({0, 2}), xp::axis(1)).shape() == xp::Shape{0});  // no output: nothing to do
}

TEST_CASE("user kernels: a compile error carries the log and the numbered source") {
  const TemporaryCache cache;
  const xp::ElementwiseKernel broken("T x", "T y", "y = x +* 2", "broken");
  try {
    broken(xp::zeros<float>({3}));
    FAIL("a kernel that does not compile ran");
  } catch (const xp::CompileError& e) {
    const std::string what = e.what();
    CHECK(what.find("kernel broken does not compile") != std::string::npos);
    CHECK(what.find("error") != std::string::npos);  // the compiler's log
    CHECK(what.find("y = x +* 2;") != std::string::npos);  // the generated source
    CHECK(what.find("   1  ") != std::string::npos);  // numbered
  }
  CHECK(broken.cached_kernels() == 0);  // a failure is not remembered
  CHECK(cache.entries().empty());
}

TEST_CASE("user kernels: XP_DUMP_SOURCE=1 prints the generated source") {
  const TemporaryCache cache;
  const ScopedEnv dump("XP_DUMP_SOURCE", "1");
  CapturedStderr captured;
  const xp::ElementwiseKernel k("T x", "T y", "y = x * 3", "dumped_kernel");
  const auto y = k(xp::ones<float>({2}));
  const std::string text = captured.text();
  CHECK(text.find("generated source of kernel dumped_kernel") != std::string::npos);
  CHECK(text.find("y = x * 3;") != std::string::npos);
  CHECK(y.as<float>().to_vector() == std::vector<float>{3, 3});
}

TEST_CASE("user kernels: a slow first compile says so in one line on a terminal, and nothing elsewhere") {
  const TemporaryCache cache;
  xp::detail::set_compile_notice_delay(std::chrono::milliseconds(0));  // every compile is "slow"
  {
    const ScopedEnv shown("XP_PROGRESS", "1");  // stderr is a file here: as if it were a terminal
    CapturedStderr captured;
    const auto y = fresh_squared_diff("noticed_kernel")(xp::ones<float>({2}), xp::zeros<float>({2}));
    const std::string text = captured.text();
    CHECK(y.as<float>().to_vector() == std::vector<float>{1, 1});
    CAPTURE(text);
    CHECK(
        text.starts_with("\rxparray: compiling run-time kernel 'noticed_kernel' for cpu(0) ...\r"
                         "xparray: compiled run-time kernel 'noticed_kernel' for cpu(0) in "));
    CHECK(text.ends_with(" s; later runs load it from the disk cache\n"));
    CHECK(std::count(text.begin(), text.end(), '\n') == 1);
  }
  {
    const ScopedEnv quiet("XP_PROGRESS", std::nullopt);  // a file, not a terminal: nothing
    CapturedStderr captured;
    (void)fresh_squared_diff("quiet_kernel")(xp::ones<float>({2}), xp::zeros<float>({2}));
    CHECK(captured.text().empty());
  }
  xp::detail::set_compile_notice_delay(std::chrono::seconds(1));
}

TEST_CASE("user kernels: one compiled kernel per device and signature, in memory") {
  const TemporaryCache cache;
  const auto k = fresh_squared_diff("cache_counts");
  CHECK(k.cached_kernels() == 0);
  k(xp::arange<float>(4), xp::arange<float>(4));
  CHECK(k.cached_kernels() == 1);
  const std::size_t compiled = xp::detail::host_compilations();
  k(xp::arange<float>(4), xp::arange<float>(4));
  CHECK(k.cached_kernels() == 1);
  CHECK(xp::detail::host_compilations() == compiled);
  k(xp::arange<double>(4), xp::arange<double>(4));
  CHECK(k.cached_kernels() == 2);
  // Another device is another entry, from the same disk entry.
  k(xp::arange<double>(4, xp::cpu(1)), xp::arange<double>(4, xp::cpu(1)));
  CHECK(k.cached_kernels() == 3);
  CHECK(xp::detail::host_compilations() == compiled + 1);
  CHECK(cache.entries().size() == 2);

  // The factories hand out one object per argument list; clear_memo forgets compiled kernels, and
  // references handed out earlier stay valid.
  const auto& a = xp::elementwise("T x", "T y", "y = x + 1", "factory_kernel");
  const auto& b = xp::elementwise("T x", "T y", "y = x + 1", "factory_kernel");
  CHECK(&a == &b);
  CHECK(&xp::elementwise("T x", "T y", "y = x + 2", "factory_kernel") != &a);
  a(xp::zeros<float>({2}));
  CHECK(a.cached_kernels() == 1);
  xp::clear_memo();
  CHECK(a.cached_kernels() == 0);
  CHECK(k.cached_kernels() == 0);
  CHECK(&xp::elementwise("T x", "T y", "y = x + 1", "factory_kernel") != &a);
  CHECK(a(xp::zeros<float>({2})).as<float>().to_vector() == std::vector<float>{1, 1});
}

XP_TEST_ON_DEVICES("user kernels: a call like the last one reuses its plan, any other is planned afresh") {
  const TemporaryCache cache;
  const auto k = fresh_squared_diff("last_plan");
  const auto values = [](const xp::ndarray<>& a) { return a.as<float>().to_vector(); };
  const auto x = xp::array<float>({1, 2, 3, 4}, {4}, device), y = xp::array<float>({4, 3, 2, 1}, {4}, device);
  const auto out = xp::zeros<float>({4}, device);
  k(x, y, out);
  CHECK(values(out) == std::vector<float>{9, 1, 1, 9});
  k(y, x, out);  // the same fingerprint, other data
  CHECK(values(out) == std::vector<float>{9, 1, 1, 9});
  CHECK(values(k(x, x)) == std::vector<float>{0, 0, 0, 0});  // outputs made, not given
  const auto six = xp::arange<float>(6, device);  // another size: the same plan
  CHECK(values(k(six, 1.0f)) == std::vector<float>{1, 0, 1, 4, 9, 16});  // a scalar: another plan
  CHECK(values(k(six, 2.0f)) == std::vector<float>{4, 1, 0, 1, 4, 9});
  const auto matrix = xp::arange<float>(6, device).reshape({2, 3});
  CHECK(values(k(matrix, xp::array<float>({0, 3, 1, 4, 2, 5}, {2, 3}, device))) ==
        std::vector<float>{0, 4, 1, 1, 4, 0});
  CHECK(values(k(matrix.transpose(), xp::zeros<float>({3, 2}, device))) == std::vector<float>{0, 9, 1, 16, 4, 25});
  CHECK(k.cached_kernels() == 3);  // contiguous with arrays, with a scalar, strided
  const auto doubles = k(xp::arange<double>(3, device), xp::ones<double>({3}, device));
  CHECK(doubles.dtype() == xp::dtype::float64);
  CHECK(doubles.as<double>().to_vector() == std::vector<double>{1, 0, 1});
  CHECK_THROWS_AS(k(x, xp::arange<float>(3, device)), xp::ValueError);  // not broadcastable
  // clear_memo forgets the last plan too: the next call goes back through the memo.
  xp::clear_memo();
  k(x, y, out);
  CHECK(k.cached_kernels() == 1);
  CHECK(values(out) == std::vector<float>{9, 1, 1, 9});
}

TEST_CASE("user kernels: compiled exactly once when threads ask together") {
  const TemporaryCache cache;
  const auto k = fresh_squared_diff("threaded_kernel");
  const std::size_t before = xp::detail::host_compilations();
  std::vector<std::thread> threads;
  std::vector<std::vector<float>> results(4);
  for (int t = 0; t < 4; ++t)
    threads.emplace_back(
        [&, t] { results[t] = k(xp::full<float>({3}, static_cast<float>(t)), 1.0f).as<float>().to_vector(); });
  for (auto& thread : threads) thread.join();
  CHECK(xp::detail::host_compilations() == before + 1);
  CHECK(k.cached_kernels() == 1);
  for (int t = 0; t < 4; ++t) CHECK(results[t] == std::vector<float>(3, static_cast<float>((t - 1) * (t - 1))));
}

TEST_CASE("user kernels: the disk cache is hit by a second process and survives corruption") {
  const TemporaryCache cache;
  const auto k = fresh_squared_diff("disk_cached");
  k(xp::arange<float>(3), xp::arange<float>(3));
  const auto entries = cache.entries();
  REQUIRE(entries.size() == 1);

  // A second process (this test binary, running the child case below) finds the kernel on disk.
  const std::string self = std::filesystem::read_symlink("/proc/self/exe").string();
  const ScopedEnv child("XP_DISK_CACHE_CHILD", "1");
  std::vector<std::string> args{self, "--test-case=user kernels: disk cache child process", "--no-version",
                                "--minimal"};
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  pid_t pid = 0;
  REQUIRE(::posix_spawn(&pid, self.c_str(), nullptr, nullptr, argv.data(), environ) == 0);
  int status = 0;
  REQUIRE(::waitpid(pid, &status, 0) == pid);
  CHECK(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);

  // A truncated entry, then a corrupted one: misses, recompiled and rewritten.
  for (const bool truncate : {true, false}) {
    CAPTURE(truncate);
    std::filesystem::path file = entries.front();
    const auto size = std::filesystem::file_size(file);
    if (truncate) {
      std::filesystem::resize_file(file, size / 2);
    } else {
      std::fstream f(file, std::ios::in | std::ios::out | std::ios::binary);
      f.seekp(static_cast<std::streamoff>(size - 100));
      f.put('\x5a');
    }
    xp::clear_memo();
    const std::size_t before = xp::detail::host_compilations();
    CHECK(k(xp::arange<float>(3), xp::ones<float>({3})).as<float>().to_vector() == std::vector<float>{1, 0, 1});
    CHECK(xp::detail::host_compilations() == before + 1);
    CHECK(std::filesystem::file_size(file) == size);
  }
}

TEST_CASE("user kernels: disk cache child process" * doctest::skip(std::getenv("XP_DISK_CACHE_CHILD") == nullptr)) {
  // Started by the test above with its XP_CACHE_DIR: the kernel must come from the disk cache.
  const auto k = fresh_squared_diff("disk_cached");
  CHECK(k(xp::arange<float>(3), xp::arange<float>(3)).as<float>().to_vector() == std::vector<float>{0, 0, 0});
  CHECK(xp::detail::host_compilations() == 0);
}

TEST_CASE("memoize: per argument values and per device") {
  int calls = 0;
  const auto squares = xp::memoize([&](int n) { return ++calls, n * n; }, true);
  CHECK(squares(3) == 9);
  CHECK(squares(3) == 9);
  CHECK(calls == 1);
  CHECK(squares(4) == 16);
  CHECK(calls == 2);
  {
    const xp::DeviceScope scope(xp::cpu(1));
    CHECK(squares(3) == 9);
    CHECK(calls == 3);
  }
  const auto shared = xp::memoize([&](const std::string& s) { return ++calls, s + s; });
  {
    const xp::DeviceScope scope(xp::cpu(1));
    CHECK(shared("ab") == "abab");
  }
  CHECK(shared("ab") == "abab");  // not per device
  CHECK(calls == 4);
  xp::clear_memo();
  CHECK(squares(3) == 9);
  CHECK(shared("ab") == "abab");
  CHECK(calls == 6);
}

TEST_CASE("user kernels: a cache directory that cannot be written leaves kernels working, uncached, with one warning") {
  // A regular file where the directory should be: as root, a read-only directory would still be written.
  const std::filesystem::path blocker =
      std::filesystem::temp_directory_path() / ("xparray-cache-blocker-" + std::to_string(::getpid()));
  std::ofstream(blocker) << "not a directory";
  const ScopedEnv env("XP_CACHE_DIR", (blocker / "kernels").string());
  std::vector<std::string> warnings;
  xp::utils::set_warning_handler([&](std::string_view message) { warnings.emplace_back(message); });
  const auto first = fresh_squared_diff("unwritable_cache_a")(xp::arange<float>(3), xp::ones<float>({3}));
  const auto second = fresh_squared_diff("unwritable_cache_b")(xp::arange<float>(3), xp::zeros<float>({3}));
  xp::utils::set_warning_handler(nullptr);
  std::filesystem::remove(blocker);
  CHECK(first.as<float>().to_vector() == std::vector<float>{1, 0, 1});
  CHECK(second.as<float>().to_vector() == std::vector<float>{0, 1, 4});
  REQUIRE(warnings.size() == 1);
  CHECK(warnings[0].starts_with("kernel cache: cannot create " + (blocker / "kernels").string() + ": "));
  CHECK(warnings[0].ends_with("; run-time kernels are compiled again in every process"));
}

TEST_CASE("user kernels: temporaries of a process killed before its rename are removed by the next store") {
  const TemporaryCache cache;
  std::filesystem::create_directories(cache.path());
  // A child writes half an entry under its own pid and is killed before renaming it.
  const pid_t child = ::fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    const std::string name = cache.path().string() + "/0123.bin." + std::to_string(::getpid()) + ".0.tmp";
    const int fd = ::open(name.c_str(), O_WRONLY | O_CREAT, 0644);
    if (fd >= 0) (void)!::write(fd, "xparray-kernel-1\n", 17);
    ::raise(SIGKILL);
  }
  int status = 0;
  REQUIRE(::waitpid(child, &status, 0) == child);
  CHECK(WIFSIGNALED(status));
  // Our own write in progress (a live pid, just made) stays; an hour-old one of a live pid goes.
  const std::filesystem::path in_progress = cache.path() / ("4567.bin." + std::to_string(::getpid()) + ".9.tmp");
  const std::filesystem::path abandoned = cache.path() / ("89ab.bin." + std::to_string(::getpid()) + ".8.tmp");
  std::ofstream(in_progress) << "partial";
  std::ofstream(abandoned) << "partial";
  std::filesystem::last_write_time(abandoned, std::filesystem::file_time_type::clock::now() - std::chrono::hours(2));
  REQUIRE(cache.entries().size() == 3);
  // A load of a half-written entry under the final name is a miss, not a crash.
  CHECK_FALSE(xp::detail::parse_cache_entry("xparray-kernel-1\n", "key").has_value());

  const auto z = fresh_squared_diff("after_a_killed_writer")(xp::arange<float>(2), xp::ones<float>({2}));
  CHECK(z.as<float>().to_vector() == std::vector<float>{1, 0});
  std::vector<std::string> names;
  for (const auto& path : cache.entries()) names.push_back(path.filename().string());
  REQUIRE(names.size() == 2);  // the write in progress and the new entry
  CHECK(std::count(names.begin(), names.end(), in_progress.filename().string()) == 1);
  CHECK(std::count_if(names.begin(), names.end(), [](const std::string& n) { return n.ends_with(".bin"); }) == 1);
}
