// Parameter files: MXNet 1.x's NDArray list format byte for byte, Block.save_parameters /
// load_parameters with structural names and MXNet's texts, written aside and renamed.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include <sys/stat.h>
#include <unistd.h>

#include "mxnet/fixture_values.hpp"
#include "source_dir.hpp"
#include "xp/gluon.hpp"
#include "xp/serialization.hpp"

namespace {

namespace fs = std::filesystem;

// A fresh empty directory for one test case.
fs::path scratch_dir(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() / ("xp_save_load_" + name + "_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

std::string file_bytes(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

void write_bytes(const fs::path& path, const std::string& bytes) { std::ofstream(path, std::ios::binary) << bytes; }

template <class T>
void append(std::string& bytes, T value) {
  char raw[sizeof value];
  std::memcpy(raw, &value, sizeof value);
  bytes.append(raw, sizeof value);
}

std::size_t entries(const fs::path& dir) {
  return static_cast<std::size_t>(std::distance(fs::directory_iterator(dir), fs::directory_iterator()));
}

std::vector<double> values(const xp::ndarray<>& a) { return a.astype(xp::dtype::float64).as<double>().to_vector(); }

bool same(const xp::ndarray<>& a, const xp::ndarray<>& b) {
  return a.dtype() == b.dtype() && a.shape() == b.shape() && values(a) == values(b);
}

xp::nn::Sequential two_layers(int hidden) {
  xp::nn::Sequential net;
  net.add(xp::nn::Dense(hidden, "relu"), xp::nn::Dense(2));
  return net;
}

// A 3-5-2 network, initialized, shapes inferred, saved to `file`.
xp::nn::Sequential saved_two_layers(const fs::path& file) {
  auto net = two_layers(5);
  net.initialize();
  net(xp::ones<float>({1, 3}));
  net.save_parameters(file);
  return net;
}

}  // namespace

TEST_CASE("save: MXNet's NDArray list format, byte for byte") {
  const fs::path dir = scratch_dir("format");
  xp::save(dir / "one.params", {{"w", xp::array<float>({1.5f, -2.0f})}});
  std::string expected;
  append<std::uint64_t>(expected, 0x112);  // list magic
  append<std::uint64_t>(expected, 0);  // reserved
  append<std::uint64_t>(expected, 1);  // one array
  append<std::uint32_t>(expected, 0xF993fac9);
  append<std::int32_t>(expected, 0);  // dense
  append<std::int32_t>(expected, 1);  // ndim
  append<std::int64_t>(expected, 2);
  append<std::int32_t>(expected, 1);  // cpu
  append<std::int32_t>(expected, 0);  // device id
  append<std::int32_t>(expected, 0);  // float32
  append<float>(expected, 1.5f);
  append<float>(expected, -2.0f);
  append<std::uint64_t>(expected, 1);  // one name
  append<std::uint64_t>(expected, 1);
  expected += "w";
  CHECK(file_bytes(dir / "one.params") == expected);
  CHECK(entries(dir) == 1);  // the file written aside was renamed, nothing left beside it
  fs::remove_all(dir);
}

TEST_CASE("load: files MXNet 1.9.1 wrote (mx.nd.save, Gluon's save_parameters) read back every name and value") {
  const fs::path fixtures = test_source_dir() / "fixtures" / "mxnet-1.9.1";  // tests/mxnet/make_fixture.py
  const xp::NamedArrays loaded = xp::load(fixtures / "arrays.params");
  const xp::NamedArrays expected = mxnet_fixture_arrays();
  REQUIRE(loaded.size() == expected.size());
  for (const auto& entry : expected) {  // not a structured binding: Clang 14 cannot capture those
    const std::string& name = entry.first;
    const xp::ndarray<>& want = entry.second;
    CAPTURE(name);
    const auto found =
        std::find_if(loaded.begin(), loaded.end(), [&](const auto& candidate) { return candidate.first == name; });
    REQUIRE(found != loaded.end());
    CHECK(found->second.dtype() == want.dtype());
    CHECK(found->second.shape() == want.shape());
    CHECK(same(found->second, want));
  }
  // A Dense(2) over 3 inputs, saved by Gluon inside a Sequential: its structural names, 0.weight and 0.bias.
  xp::nn::Sequential net;
  net.add(xp::nn::Dense(2, "", true, true, 3));
  net.initialize();
  net.load_parameters(fixtures / "dense.params");
  CHECK(net[0].weight().data().as<float>().to_vector() == std::vector<float>{0.5f, -1.0f, 2.0f, 1.5f, 0.25f, -0.75f});
  CHECK(net[0].bias().data().as<float>().to_vector() == std::vector<float>{0.125f, -3.0f});
}

TEST_CASE("save/load: every dtype, 0-d and empty arrays, any device, round trip") {
  const fs::path dir = scratch_dir("round_trip");
  const xp::NamedArrays arrays = {
      {"f32", xp::array<float>({{1.f, 2.f, 3.f}, {4.f, 5.f, 6.f}})},
      {"f64 transposed", xp::array<double>({{1., 2.}, {3., 4.}}).transpose()},
      {"i64", xp::array<std::int64_t>({-5, 1LL << 40})},
      {"u8", xp::array<std::uint8_t>({0, 255})},
      {"flags", xp::array<bool>({true, false, true})},
      {"scalar", xp::full<std::int32_t>({}, 7)},
      {"empty", xp::zeros<float>({0, 3})},
      {"on cpu(1)", xp::array<std::int16_t>({-3, 4}, xp::cpu(1))},
  };
  xp::save(dir / "all.params", arrays);
  const xp::NamedArrays loaded = xp::load(dir / "all.params");
  REQUIRE(loaded.size() == arrays.size());
  for (std::size_t i = 0; i < arrays.size(); ++i) {
    CAPTURE(arrays[i].first);
    CHECK(loaded[i].first == arrays[i].first);
    CHECK(loaded[i].second.dtype() == arrays[i].second.dtype());
    CHECK(loaded[i].second.shape() == arrays[i].second.shape());
    CHECK(loaded[i].second.device() == xp::cpu(0));
    CHECK(same(loaded[i].second, arrays[i].second.copyto(xp::cpu(0))));
  }
  CHECK(loaded[1].second.as<double>().to_vector() == std::vector<double>{1., 3., 2., 4.});  // C order
  fs::remove_all(dir);
}

TEST_CASE("load: files that are not NDArray lists are ValueErrors saying what is wrong") {
  const fs::path dir = scratch_dir("corrupt");
  CHECK_THROWS_AS(xp::load(dir / "absent.params"), xp::IOError);

  write_bytes(dir / "text.params", "hello, this is not a parameter file");
  CHECK_THROWS_WITH_AS(xp::load(dir / "text.params"), doctest::Contains("not an NDArray file (it starts with 0x"),
                       xp::ValueError);

  xp::save(dir / "good.params", {{"w", xp::array<float>({1.f, 2.f, 3.f})}});
  const std::string good = file_bytes(dir / "good.params");
  write_bytes(dir / "cut.params", good.substr(0, good.size() - 21));  // inside the last element
  CHECK_THROWS_WITH_AS(xp::load(dir / "cut.params"),
                       doctest::Contains("of shape (3,) needs 12 bytes, more than the 8 left"), xp::ValueError);
  // The header's rank and extents go through the checks every shape does.
  std::string deep = good;
  const std::int32_t rank = 17;
  std::memcpy(deep.data() + 24 + 4 + 4, &rank, 4);
  write_bytes(dir / "deep.params", deep);
  CHECK_THROWS_WITH_AS(xp::load(dir / "deep.params"),
                       doctest::Contains("has rank 17; arrays have at most 16 dimensions"), xp::ValueError);
  std::string huge = good;
  const std::int64_t extent = std::int64_t{1} << 62;
  std::memcpy(huge.data() + 24 + 4 + 4 + 4, &extent, 8);
  write_bytes(dir / "huge.params", huge);
  CHECK_THROWS_WITH_AS(xp::load(dir / "huge.params"),
                       doctest::Contains("the array at offset 24: an array of shape (4611686018427387904,) and dtype "
                                         "float32 is too big"),
                       xp::ValueError);
  write_bytes(dir / "cut_name.params", good.substr(0, good.size() - 1));
  CHECK_THROWS_WITH_AS(xp::load(dir / "cut_name.params"), doctest::Contains("a name of 1 bytes at offset"),
                       xp::ValueError);
  write_bytes(dir / "tail.params", good + "x");
  CHECK_THROWS_WITH_AS(xp::load(dir / "tail.params"), doctest::Contains("1 bytes after the last name"), xp::ValueError);

  // 99, and -1: no dtype's flag (the complex types have none; the fuzzer found -1 read as complex64).
  for (const std::int32_t flag : {99, -1}) {
    std::string unknown = good;
    std::memcpy(unknown.data() + 24 + 4 + 4 + 4 + 8 + 4 + 4, &flag, 4);  // the type flag
    write_bytes(dir / "unknown.params", unknown);
    const std::string message = "has type flag " + std::to_string(flag) + ", which xparray has no type for";
    CHECK_THROWS_WITH_AS(xp::load(dir / "unknown.params"), doctest::Contains(message.c_str()), xp::ValueError);
  }
  std::string sparse = good;
  const std::int32_t row_sparse = 1;
  std::memcpy(sparse.data() + 24 + 4, &row_sparse, 4);
  write_bytes(dir / "sparse.params", sparse);
  CHECK_THROWS_WITH_AS(xp::load(dir / "sparse.params"),
                       doctest::Contains("has storage type 1 (sparse); only dense arrays (0) are supported"),
                       xp::ValueError);

  // Found by fuzz_load: a bool element that is neither 0 nor 1 was loaded, and reading it was undefined.
  xp::save(dir / "flags.params", {{"m", xp::array<bool>({true, false, true})}});
  std::string flags = file_bytes(dir / "flags.params");
  const std::size_t elements = 24 + 4 + 4 + 4 + 8 + 4 + 4 + 4;
  REQUIRE(flags[elements + 2] == 1);
  flags[elements + 1] = 43;
  write_bytes(dir / "flags.params", flags);
  CHECK_THROWS_WITH_AS(xp::load(dir / "flags.params"),
                       doctest::Contains("the bool array at offset 24 holds the byte 43 at offset 57; bool elements "
                                         "are 0 or 1"),
                       xp::ValueError);
  fs::remove_all(dir);
}

TEST_CASE("save_parameters: structural names, so another instance of the same network loads the file") {
  const fs::path dir = scratch_dir("block");
  xp::random::seed(3);
  auto net = two_layers(5);
  net.initialize();
  const auto x = xp::random::normal<float>(0.f, 1.f, {4, 3});
  const auto y = net(x);
  net.save_parameters(dir / "net.params");
  std::vector<std::string> names;
  for (const auto& [name, array] : xp::load(dir / "net.params")) names.push_back(name);
  CHECK(names == std::vector<std::string>{"0.weight", "0.bias", "1.weight", "1.bias"});

  auto copy = two_layers(5);  // other counters: dense2_, dense3_
  CHECK(copy[0].weight().name() != net[0].weight().name());
  copy.load_parameters(dir / "net.params");  // deferred until now: the file gives the shapes
  CHECK(copy[0].weight().shape() == xp::Shape{5, 3});
  CHECK(copy[0].weight().list_ctx() == std::vector<xp::Device>{xp::cpu(0)});
  CHECK(same(copy(x), y));

  auto replicated = two_layers(5);
  replicated.initialize(xp::initializer::Zero(), {xp::cpu(0), xp::cpu(1)});
  replicated(x);  // finishes the deferred initialization with zeros
  replicated.load_parameters(dir / "net.params");  // set_data into both copies
  CHECK(same(replicated[1].weight().data(xp::cpu(1)), net[1].weight().data()));
  CHECK(same(replicated[1].weight().data(xp::cpu(0)), net[1].weight().data()));
  CHECK_THROWS_WITH_AS(replicated.load_parameters(dir / "net.params", {xp::cpu(2)}),
                       doctest::Contains("' on [cpu(2)] because it was previous initialized on [cpu(0), cpu(1)]."),
                       xp::ValueError);

  auto on_two = two_layers(5);
  on_two.load_parameters(dir / "net.params", {xp::cpu(1), xp::cpu(0)});
  CHECK(on_two[0].bias().list_ctx() == std::vector<xp::Device>{xp::cpu(1), xp::cpu(0)});

  // The average of the copies is what is saved.
  const auto bias_on_1 = replicated[1].bias().data(xp::cpu(1));
  (bias_on_1 + 2.0f).copyto(bias_on_1);
  replicated.save_parameters(dir / "average.params");
  const auto saved = xp::load(dir / "average.params");
  CHECK(values(saved[3].second) == values(net[1].bias().data() + 1.0f));
  fs::remove_all(dir);
}

TEST_CASE("load_parameters: missing and extra names, shapes and dtypes are MXNet's errors") {
  const fs::path dir = scratch_dir("names");
  auto net = saved_two_layers(dir / "net.params");

  xp::nn::Sequential deeper;
  deeper.add(xp::nn::Dense(5, "relu"), xp::nn::Dense(2), xp::nn::Dense(1));
  CHECK_THROWS_WITH_AS(deeper.load_parameters(dir / "net.params"),
                       ("Parameter '2.weight' is missing in file '" + (dir / "net.params").string() +
                        "', which contains parameters: '0.weight', '0.bias', '1.weight', '1.bias'. Set "
                        "allow_missing=True to ignore missing parameters.")
                           .c_str(),
                       xp::ValueError);
  deeper.load_parameters(dir / "net.params", {}, /*allow_missing=*/true);
  CHECK(same(deeper[1].weight().data(), net[1].weight().data()));
  CHECK(deeper[2].weight().is_initialized() == false);

  xp::nn::Sequential shallow;
  shallow.add(xp::nn::Dense(5, "relu"));
  CHECK_THROWS_WITH_AS(shallow.load_parameters(dir / "net.params"),
                       ("Parameter '1.weight' loaded from file '" + (dir / "net.params").string() +
                        "' is not present in ParameterDict, which contains parameters '0.weight', '0.bias'. Set "
                        "ignore_extra=True to ignore. ")
                           .c_str(),
                       xp::ValueError);
  shallow.load_parameters(dir / "net.params", {}, false, /*ignore_extra=*/true);
  CHECK(same(shallow[0].bias().data(), net[0].bias().data()));

  auto wider = two_layers(6);
  CHECK_THROWS_WITH_AS(wider.load_parameters(dir / "net.params"),
                       doctest::Contains("from saved params: shape incompatible expected (6, 0) vs saved (5, 3)"),
                       xp::ValueError);
  xp::save(dir / "double.params", {{"0.weight", xp::zeros<double>({5, 3})}});
  CHECK_THROWS_WITH_AS(two_layers(5).load_parameters(dir / "double.params", {}, true),
                       doctest::Contains("dtype incompatible expected float32 vs saved float64"), xp::ValueError);

  // Eight names print as MXNet's brief list: the first three, then the last four.
  xp::nn::Sequential wide;
  for (int i = 0; i < 4; ++i) wide.add(xp::nn::Dense(1));
  wide.initialize();
  wide(xp::ones<float>({1, 1}));
  wide.save_parameters(dir / "wide.params");
  xp::nn::Sequential wider_still;
  for (int i = 0; i < 5; ++i) wider_still.add(xp::nn::Dense(1));
  CHECK_THROWS_WITH_AS(wider_still.load_parameters(dir / "wide.params"),
                       ("Parameter '4.weight' is missing in file '" + (dir / "wide.params").string() +
                        "', which contains parameters: '0.weight', '0.bias', '1.weight', ..., '2.weight', '2.bias', "
                        "'3.weight', '3.bias'. Set allow_missing=True to ignore missing parameters.")
                           .c_str(),
                       xp::ValueError);
  fs::remove_all(dir);
}

TEST_CASE("save: the file has the mode of any file the program creates (0666 less the umask), not 0600") {
  const fs::path dir = scratch_dir("mode");
  const mode_t previous = ::umask(027);
  xp::save(dir / "a.params", {{"w", xp::array<float>({1.f})}});
  ::umask(previous);
  CHECK(fs::status(dir / "a.params").permissions() ==
        (fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read));
  CHECK(entries(dir) == 1);
  fs::remove_all(dir);
}

TEST_CASE("save_parameters: an error leaves the old file and nothing beside it") {
  const fs::path dir = scratch_dir("crash");
  auto net = saved_two_layers(dir / "net.params");
  const std::string before = file_bytes(dir / "net.params");

  auto unfinished = two_layers(5);
  unfinished.initialize();  // deferred: nothing to save yet
  CHECK_THROWS_AS(unfinished.save_parameters(dir / "net.params"), xp::gluon::DeferredInitializationError);
  CHECK(file_bytes(dir / "net.params") == before);
  CHECK_THROWS_AS(net.save_parameters(dir / "no such folder" / "net.params"), xp::IOError);
  CHECK(entries(dir) == 1);
  fs::remove_all(dir);
}
