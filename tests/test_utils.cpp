// xp::utils (MXNet's gluon.utils): split_data, split_and_load, clip_global_norm, check_sha1,
// replace_file, with the values worked out by hand.
#include <doctest/doctest.h>

#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <string>
#include <vector>

#include "xp/utils.hpp"
#include "xp/xp.hpp"

namespace {

// A scratch directory for one test, removed with it.
class ScratchDir {
 public:
  ScratchDir()
      : path_(std::filesystem::temp_directory_path() /
              ("xparray-utils-test-" + std::to_string(::getpid()) + "-" + std::to_string(counter_++))) {
    std::filesystem::remove_all(path_);
    std::filesystem::create_directories(path_);
  }
  ~ScratchDir() { std::filesystem::remove_all(path_); }
  std::filesystem::path operator/(const std::string& name) const { return path_ / name; }

 private:
  static inline int counter_ = 0;
  std::filesystem::path path_;
};

void write_file(const std::filesystem::path& path, const std::string& contents) {
  std::ofstream(path, std::ios::binary) << contents;
}

std::string read_file(const std::filesystem::path& path) {
  std::ifstream file(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
}

}  // namespace

TEST_CASE("split_data: even slices as views, and MXNet's error text") {
  const auto data = xp::arange<float>(12).reshape({6, 2});
  const auto halves = xp::utils::split_data(data, 2);
  REQUIRE(halves.size() == 2);
  CHECK(halves[0].to_vector() == std::vector<float>{0, 1, 2, 3, 4, 5});
  CHECK(halves[1].to_vector() == std::vector<float>{6, 7, 8, 9, 10, 11});
  CHECK(halves[1].shares_buffer_with(data));  // a view
  CHECK(xp::utils::split_data(data, 1).size() == 1);  // a vector even for one slice
  CHECK_THROWS_WITH_AS(xp::utils::split_data(data, 4),
                       "data with shape (6, 2) cannot be evenly split into 4 slices along axis 0. Use a batch size "
                       "that's multiple of 4 or set even_split=False to allow uneven partitioning of data.",
                       xp::ValueError);
  CHECK_THROWS_WITH_AS(xp::utils::split_data(data, 4, -2), doctest::Contains("slices along axis -2."),
                       xp::ValueError);  // the axis as given, as MXNet
}

TEST_CASE("split_data with even_split = false: MXNet 1.9's slices") {
  const auto sizes = [](std::int64_t rows, int num_slice, int batch_axis = 0) {
    const auto data = batch_axis == 0 ? xp::arange<float>(rows * 2).reshape({rows, 2})
                                      : xp::arange<float>(rows * 2).reshape({2, rows});
    std::vector<std::int64_t> got;
    std::vector<float> joined;
    for (const auto& part : xp::utils::split_data(data, num_slice, batch_axis, false)) {
      got.push_back(part.shape()[batch_axis]);
      CHECK(part.shares_buffer_with(data));
      if (batch_axis == 0) {
        const auto v = part.to_vector();
        joined.insert(joined.end(), v.begin(), v.end());
      }
    }
    if (batch_axis == 0) CHECK(joined == data.to_vector());  // in order, every row once
    return got;
  };
  CHECK(sizes(10, 4) == std::vector<std::int64_t>{3, 3, 2, 2});  // the first 10 % 4 slices take one more
  CHECK(sizes(5, 2) == std::vector<std::int64_t>{3, 2});
  CHECK(sizes(6, 4) == std::vector<std::int64_t>{2, 2, 1, 1});
  CHECK(sizes(5, 7) == std::vector<std::int64_t>{1, 1, 1, 1, 1, 0, 0});  // always num_slice slices
  CHECK(sizes(0, 3) == std::vector<std::int64_t>{0, 0, 0});
  CHECK(sizes(8, 4) == std::vector<std::int64_t>{2, 2, 2, 2});
  CHECK(sizes(10, 4, 1) == std::vector<std::int64_t>{3, 3, 2, 2});
  const auto data = xp::arange<float>(12).reshape({6, 2});
  const auto uneven = xp::utils::split_data(data, 4, 0, false);
  CHECK(uneven[0].to_vector() == std::vector<float>{0, 1, 2, 3});
  CHECK(uneven[3].to_vector() == std::vector<float>{10, 11});
  CHECK(xp::utils::split_data(data, 8, 0, false)[7].shape() == xp::Shape(0, 2));
}

TEST_CASE("split_data: other axes, and its argument errors") {
  const auto data = xp::arange<float>(12).reshape({6, 2});
  // Another axis, negative too.
  const auto columns = xp::utils::split_data(data, 2, -1);
  REQUIRE(columns.size() == 2);
  CHECK(columns[1].to_vector() == std::vector<float>{1, 3, 5, 7, 9, 11});
  CHECK(xp::utils::split_data(data, 2, 1)[0].to_vector() == columns[0].to_vector());
  CHECK_THROWS_AS(xp::utils::split_data(data, 2, 2), xp::ValueError);
  CHECK_THROWS_AS(xp::utils::split_data(data, 0), xp::ValueError);
}

TEST_CASE("split_and_load: one slice per device, copied straight there") {
  const auto data = xp::arange<double>(8, xp::cpu(1)).reshape({4, 2});
  const auto parts = xp::utils::split_and_load(data, {xp::cpu(0), xp::cpu(1)});
  REQUIRE(parts.size() == 2);
  CHECK(parts[0].device() == xp::cpu(0));
  CHECK(parts[1].device() == xp::cpu(1));
  CHECK(parts[0].to_vector() == std::vector<double>{0, 1, 2, 3});
  CHECK(parts[1].to_vector() == std::vector<double>{4, 5, 6, 7});
  CHECK(!parts[0].shares_buffer_with(data));
  CHECK(parts[1].shares_buffer_with(data));  // already on cpu(1): not copied
  const auto single = xp::utils::split_and_load(data, {xp::cpu(2)});
  REQUIRE(single.size() == 1);
  CHECK(single[0].device() == xp::cpu(2));
  CHECK_THROWS_AS(xp::utils::split_and_load(xp::arange<double>(3), {xp::cpu(0), xp::cpu(1)}), xp::ValueError);
  // Fewer rows than devices, uneven: every device still gets its slice, the last ones empty.
  const auto few = xp::utils::split_and_load(xp::arange<double>(2), {xp::cpu(0), xp::cpu(1), xp::cpu(2)}, 0, false);
  REQUIRE(few.size() == 3);
  CHECK(few[1].to_vector() == std::vector<double>{1});
  CHECK(few[2].shape() == xp::Shape(0));
  CHECK(few[2].device() == xp::cpu(2));
}

TEST_CASE("clip_global_norm: scales by max_norm / norm across devices, and only when the norm exceeds it") {
  // Norms 5 (3, 4) and 12 (12): global norm 13.
  std::vector<xp::ndarray<float>> arrays{xp::array<float>({3, 4}, xp::cpu(0)), xp::array<float>({12}, xp::cpu(1))};
  CHECK(xp::utils::clip_global_norm(arrays, 6.5f) == doctest::Approx(13.0));
  const double scale = 6.5 / (13 + 1e-8);
  CHECK(arrays[0].to_vector()[0] == doctest::Approx(3 * scale).epsilon(1e-6));
  CHECK(arrays[0].to_vector()[1] == doctest::Approx(4 * scale).epsilon(1e-6));
  CHECK(arrays[1].to_vector()[0] == doctest::Approx(12 * scale).epsilon(1e-6));
  CHECK(arrays[1].device() == xp::cpu(1));
  // Under max_norm: untouched.
  std::vector<xp::ndarray<double>> small{xp::array<double>({0.3, 0.4})};
  CHECK(xp::utils::clip_global_norm(small, 1.0) == doctest::Approx(0.5));
  CHECK(small[0].to_vector() == std::vector<double>{0.3, 0.4});
}

TEST_CASE("clip_global_norm: a NaN or infinite norm is reported and the arrays are left alone") {
  std::vector<std::string> warnings;
  xp::utils::set_warning_handler([&](std::string_view message) { warnings.emplace_back(message); });
  std::vector<xp::ndarray<float>> arrays{xp::array<float>({1, std::numeric_limits<float>::infinity()}),
                                         xp::array<float>({100})};
  CHECK(std::isinf(xp::utils::clip_global_norm(arrays, 1.0f)));
  CHECK(arrays[1].to_vector() == std::vector<float>{100});
  REQUIRE(warnings.size() == 1);
  CHECK(warnings[0].find("left unscaled") != std::string::npos);
  // Without the check the scale is applied whatever it is (as MXNet): 100 * 0 = 0.
  CHECK(std::isinf(xp::utils::clip_global_norm(arrays, 1.0f, false)));
  CHECK(arrays[1].to_vector() == std::vector<float>{0});
  CHECK(warnings.size() == 1);
  xp::utils::set_warning_handler(nullptr);
  std::vector<xp::ndarray<float>> none;
  CHECK_THROWS_AS(xp::utils::clip_global_norm(none, 1.0f), xp::ValueError);
}

TEST_CASE("check_sha1: known digests, any case, bounded reads, errors naming the file") {
  const ScratchDir dir;
  write_file(dir / "abc", "abc");
  CHECK(xp::utils::check_sha1(dir / "abc", "a9993e364706816aba3e25717850c26c9cd0d89d"));
  CHECK(xp::utils::check_sha1(dir / "abc", "A9993E364706816ABA3E25717850C26C9CD0D89D"));
  CHECK(!xp::utils::check_sha1(dir / "abc", "da39a3ee5e6b4b0d3255bfef95601890afd80709"));
  write_file(dir / "empty", "");
  CHECK(xp::utils::check_sha1(dir / "empty", "da39a3ee5e6b4b0d3255bfef95601890afd80709"));
  // A million 'a' (FIPS 180's long test vector), read in chunks.
  write_file(dir / "a-million", std::string(1000000, 'a'));
  CHECK(xp::utils::check_sha1(dir / "a-million", "34aa973cd4c4daa4f61eeb2bdbad27316534016f"));
  CHECK_THROWS_WITH_AS(xp::utils::check_sha1(dir / "missing", "da39a3ee5e6b4b0d3255bfef95601890afd80709"),
                       doctest::Contains("missing"), xp::IOError);
  CHECK_THROWS_AS(xp::utils::check_sha1(dir / "abc", "a9993e"), xp::ValueError);
}

TEST_CASE("replace_file: atomic rename over an existing file; failures keep dst and name both paths") {
  const ScratchDir dir;
  write_file(dir / "new", "new contents");
  write_file(dir / "dst", "old contents");
  xp::utils::replace_file(dir / "new", dir / "dst");
  CHECK(read_file(dir / "dst") == "new contents");
  CHECK(!std::filesystem::exists(dir / "new"));
  // A missing source: dst stays as it was.
  try {
    xp::utils::replace_file(dir / "absent", dir / "dst");
    FAIL("replace_file of a missing file returned");
  } catch (const xp::IOError& e) {
    CHECK(std::string(e.what()).find("absent") != std::string::npos);
    CHECK(std::string(e.what()).find("dst") != std::string::npos);
  }
  CHECK(read_file(dir / "dst") == "new contents");
  // Into a directory that does not exist.
  write_file(dir / "src", "x");
  CHECK_THROWS_AS(xp::utils::replace_file(dir / "src", dir / "no-such-dir" / "dst"), xp::IOError);
  CHECK(read_file(dir / "src") == "x");
}
