// NumPy's .npy and .npz files: what save_npy writes is byte for byte what NumPy 2 wrote for the same
// array (tests/fixtures/npy, made by tests/npy/make_fixtures.py); what NumPy writes in any byte order,
// layout and format version loads as its values, alone or in an archive; a malformed file is a
// ValueError naming what is where.
#include <doctest/doctest.h>

#include <unistd.h>

#include <complex>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "core/npy_header.hpp"
#include "device_cases.hpp"
#include "source_dir.hpp"
#include "xp/npy.hpp"

namespace {

namespace fs = std::filesystem;

const char* const kCodes[] = {"b1", "i1", "u1", "i2", "u2", "i4", "u4", "i8", "u8", "f2", "f4", "f8", "c8", "c16"};

fs::path fixture(const std::string& name) { return test_source_dir() / "fixtures" / "npy" / name; }

// A fresh empty directory of this process's.
fs::path scratch_dir(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() / ("xp_npy_" + name + "_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

std::string file_bytes(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

void write_bytes(const fs::path& path, const std::string& bytes) { std::ofstream(path, std::ios::binary) << bytes; }

// The elements' bytes in C order, whatever the device and layout.
std::string element_bytes(const xp::ndarray<>& a) {
  std::string bytes(a.nbytes(), '\0');
  xp::detail::copy_to_host(a, bytes.data());
  return bytes;
}

std::vector<double> real_values(const xp::ndarray<>& a) {
  return a.astype(xp::dtype::float64).as<double>().to_vector();
}

// A version 1.0 file with `dict` as its header (padded as NumPy pads) and `elements` after it.
std::string npy_file(const std::string& dict, const std::string& elements = "") {
  std::string header = dict;
  header.append(64 - (10 + header.size() + 1) % 64, ' ');
  header += '\n';
  std::string file = "\x93NUMPY\x01";
  file += '\0';
  file += static_cast<char>(header.size() & 0xff);
  file += static_cast<char>(header.size() >> 8);
  return file + header + elements;
}

}  // namespace

XP_TEST_ON_DEVICES("npy: every type saves as NumPy saved it, byte for byte, and loads on the device") {
  const fs::path dir = scratch_dir("types");
  for (const char* code : kCodes) {
    CAPTURE(code);
    const xp::ndarray<> a = xp::load_npy(fixture(std::string("le_") + code + ".npy"), device);
    CHECK(a.device() == device);
    CHECK(a.shape() == xp::Shape{2, 3});
    CHECK(xp::detail::npy_descr(a.dtype()).substr(1) == code);
    xp::save_npy(dir / "a.npy", a);
    CHECK(file_bytes(dir / "a.npy") == file_bytes(fixture(std::string("le_") + code + ".npy")));
  }
  // The values themselves, for one type of each kind (make_fixtures.py's formula).
  CHECK(real_values(xp::load_npy(fixture("le_i8.npy"), device)) == std::vector<double>{-3, -2, -1, 0, 1, 2});
  CHECK(real_values(xp::load_npy(fixture("le_u2.npy"), device)) == std::vector<double>{0, 1, 2, 3, 4, 5});
  CHECK(real_values(xp::load_npy(fixture("le_f2.npy"), device)) == std::vector<double>{-3, -2, -1, 0, 1, 2});
  CHECK(real_values(xp::load_npy(fixture("le_b1.npy"), device)) == std::vector<double>{1, 1, 1, 0, 1, 1});
  const auto complex = xp::load_npy(fixture("le_c16.npy"), device).as<std::complex<double>>().to_vector();
  CHECK(complex == std::vector<std::complex<double>>{{-3, 0}, {-2, 0.5}, {-1, 1}, {0, 1.5}, {1, 2}, {2, 2.5}});
  fs::remove_all(dir);
}

XP_TEST_ON_DEVICES("npy: a view saves in C order; 0-d, empty and bfloat16 arrays as NumPy has them") {
  const fs::path dir = scratch_dir("views");
  const xp::ndarray<> a = xp::load_npy(fixture("le_i4.npy"), device);
  xp::save_npy(dir / "t.npy", a.transpose());
  CHECK(file_bytes(dir / "t.npy") == file_bytes(fixture("transposed_i4.npy")));
  const xp::ndarray<> scalar = xp::load_npy(fixture("scalar_f8.npy"), device);
  CHECK(scalar.ndim() == 0);
  CHECK(real_values(scalar) == std::vector<double>{3.5});
  xp::save_npy(dir / "s.npy", scalar);
  CHECK(file_bytes(dir / "s.npy") == file_bytes(fixture("scalar_f8.npy")));
  const xp::ndarray<> empty = xp::load_npy(fixture("empty_f4.npy"), device);
  CHECK(empty.shape() == xp::Shape{0, 3});
  xp::save_npy(dir / "e.npy", empty);
  CHECK(file_bytes(dir / "e.npy") == file_bytes(fixture("empty_f4.npy")));
  const xp::ndarray<> bf16 = xp::load_npy(fixture("bf16.npy"), device);
  CHECK(bf16.dtype() == xp::dtype::bfloat16);
  CHECK(real_values(bf16) == std::vector<double>{1, -2.5, 3.25});
  xp::save_npy(dir / "b.npy", bf16);
  CHECK(file_bytes(dir / "b.npy") == file_bytes(fixture("bf16.npy")));
  fs::remove_all(dir);
}

XP_TEST_ON_DEVICES("npy: big-endian, Fortran order and format versions 2.0 and 3.0 load as their values") {
  for (const char* code : kCodes) {
    if (std::string(code) == "b1" || std::string(code) == "i1" || std::string(code) == "u1") continue;
    CAPTURE(code);
    const xp::ndarray<> big = xp::load_npy(fixture(std::string("be_") + code + ".npy"), device);
    const xp::ndarray<> little = xp::load_npy(fixture(std::string("le_") + code + ".npy"), device);
    CHECK(big.dtype() == little.dtype());
    CHECK(element_bytes(big) == element_bytes(little));
  }
  const xp::ndarray<> fortran = xp::load_npy(fixture("fortran_i4.npy"), device);
  CHECK(fortran.shape() == xp::Shape{2, 3, 4});
  CHECK(element_bytes(fortran) == element_bytes(xp::load_npy(fixture("c_i4.npy"), device)));
  const std::string v1 = element_bytes(xp::load_npy(fixture("le_f8.npy"), device));
  CHECK(element_bytes(xp::load_npy(fixture("v2_f8.npy"), device)) == v1);
  CHECK(element_bytes(xp::load_npy(fixture("v3_f8.npy"), device)) == v1);
}

TEST_CASE("npy: the header's text: dict keys in any order, quotes of either kind, Python 2's long extents") {
  const xp::detail::NpyHeader header =
      xp::detail::parse_npy_header("{\"shape\": (2L, 3), 'fortran_order':True,'descr':'>u4'}  \n", 10, "here");
  CHECK(header.type == xp::dtype::uint32);
  CHECK(header.big_endian);
  CHECK(header.fortran_order);
  CHECK(header.shape == xp::Shape{2, 3});
  CHECK(xp::detail::npy_header(xp::dtype::float64, xp::Shape{}) == file_bytes(fixture("scalar_f8.npy")).substr(0, 128));
}

TEST_CASE("npy: a malformed file is a ValueError naming what was found at which offset") {
  const fs::path dir = scratch_dir("errors");
  const fs::path path = dir / "bad.npy";
  const std::string where = "load_npy(\"" + path.string() + "\"): ";
  const auto error_of = [&](const std::string& bytes) {
    write_bytes(path, bytes);
    try {
      xp::load_npy(path);
    } catch (const xp::ValueError& e) { return std::string(e.what()); }
    return std::string("no ValueError");
  };
  const std::string good = "{'descr': '<i2', 'fortran_order': False, 'shape': (2,), }";
  CHECK(error_of("PK\x03\x04") == where + "not a .npy file: it starts with 'PK\\x03\\x04', not NumPy's '\\x93NUMPY'");
  CHECK(error_of(std::string("\x93NUMPY\x04\0", 8)) ==
        where + "format version 4.0 at offset 6; NumPy writes 1.0, 2.0 and 3.0");
  CHECK(error_of(std::string("\x93NUMPY\x02\0\x10", 9)) ==
        where + "the file ends at byte 9 inside the header's length (offset 8)");
  CHECK(error_of(npy_file(good).substr(0, 40)) ==
        where + "the file ends at byte 40 inside the header, which ends at offset 128");
  CHECK(error_of(npy_file(good, std::string("\1\0", 2))) ==
        where + "the elements (shape (2,), <i2) need 4 bytes from offset 128; the file ends at byte 130");
  CHECK(error_of(npy_file("{'descr': '<U5', 'fortran_order': False, 'shape': (2,), }")) ==
        where +
            "the header's descr at offset 20 is '<U5', which xparray has no type for (it reads b1, i1-i8, u1-u8, "
            "f2, f4, f8, c8, c16 and V2 as bfloat16, in either byte order)");
  CHECK(error_of(npy_file("{'descr': '<i2', 'fortran_order': False, 'shape': (2,), 'x': 1}")) ==
        where + "the header has the key 'x' at offset 66; NumPy's has 'descr', 'fortran_order' and 'shape' alone");
  CHECK(error_of(npy_file("{'descr': '<i2', 'fortran_order': False}")) ==
        where + "the header at offset 10 has no 'shape' key");
  CHECK(error_of(npy_file("{'descr': '<i2', 'fortran_order': 0, 'shape': (2,)}")) ==
        where + "the header has '0' at offset 44 where fortran_order's True or False should be");
  CHECK(error_of(npy_file("{'descr': '<i2', 'fortran_order': False, 'shape': (-2,)}")) ==
        where + "the header has '-' at offset 61 where an extent (a non-negative integer) should be");
  CHECK(error_of(npy_file("{'descr': '<i2', 'fortran_order': False, 'shape': (2,) ")) ==
        where + "the header has the end of the header at offset 128 where ',' or '}' should be");
  CHECK(error_of(npy_file("{'descr': [('a', '<i2')], 'fortran_order': False, 'shape': (2,)}")) ==
        where +
            "the header has '[' at offset 20 where descr's string (a structured type's list of fields is not "
            "read) should be");
  CHECK(error_of(npy_file("{'descr': '|b1', 'fortran_order': False, 'shape': (3,), }", std::string("\1\0\2", 3))) ==
        where + "the bool element at offset 130 is the byte 2; bool elements are 0 or 1");
  CHECK_THROWS_AS(xp::load_npy(dir / "missing.npy"), xp::IOError);
  CHECK_THROWS_AS(xp::save_npy(dir / "no" / "such" / "dir.npy", xp::zeros<float>({2})), xp::IOError);
  fs::remove_all(dir);
}

namespace {

// The arrays of make_fixtures.py's npz_arrays(), in its order.
xp::NamedArrays npz_fixture_arrays() {
  const xp::ndarray<> block = xp::arange<float>(0, 24).reshape({2, 3, 4}) - 5.f;
  return {{"i4", xp::ndarray<>(xp::array<std::int32_t>({-3, -2, -1, 0, 1, 2}).reshape({2, 3}))},
          {"c16", xp::array<std::complex<double>>(
                      std::vector<std::complex<double>>{{-3, 0}, {-2, 0.5}, {-1, 1}, {0, 1.5}, {1, 2}, {2, 2.5}},
                      xp::Shape{2, 3})},
          {"scalar", xp::full<double>({}, 3.5)},
          {"fortran_be", block},
          {"\u00e9", xp::zeros<bool>({0})}};
}

void check_same_arrays(const xp::NamedArrays& got, const xp::NamedArrays& wanted, xp::Device device) {
  REQUIRE(got.size() == wanted.size());
  for (std::size_t i = 0; i < got.size(); ++i) {
    CAPTURE(wanted[i].first);
    CHECK(got[i].first == wanted[i].first);
    CHECK(got[i].second.device() == device);
    CHECK(got[i].second.dtype() == wanted[i].second.dtype());
    CHECK(got[i].second.shape() == wanted[i].second.shape());
    CHECK(element_bytes(got[i].second) == element_bytes(wanted[i].second));
  }
}

}  // namespace

XP_TEST_ON_DEVICES("npz: what np.savez and np.savez_compressed wrote loads as its arrays, in order, on the device") {
  check_same_arrays(xp::load_npz(fixture("savez.npz"), device), npz_fixture_arrays(), device);
  check_same_arrays(xp::load_npz(fixture("savez_compressed.npz"), device), npz_fixture_arrays(), device);
  check_same_arrays(xp::load_npz(fixture("zip64_end.npz"), device), npz_fixture_arrays(), device);
}

XP_TEST_ON_DEVICES("npz: savez and savez_compressed of every type load back; a stored member is save_npy's bytes") {
  const fs::path dir = scratch_dir("npz_types");
  xp::NamedArrays arrays;
  for (const char* code : kCodes)
    arrays.emplace_back(code, xp::load_npy(fixture(std::string("le_") + code + ".npy"), device));
  arrays.emplace_back("transposed", arrays[5].second.transpose());
  xp::savez(dir / "stored.npz", arrays);
  xp::savez_compressed(dir / "deflated", arrays);  // the extension added, as NumPy adds it
  check_same_arrays(xp::load_npz(dir / "stored.npz", device), arrays, device);
  check_same_arrays(xp::load_npz(dir / "deflated.npz", device), arrays, device);
  CHECK(file_bytes(dir / "deflated.npz").size() < file_bytes(dir / "stored.npz").size());
  xp::save_npy(dir / "transposed", arrays.back().second);
  CHECK(file_bytes(dir / "stored.npz").find(file_bytes(dir / "transposed.npy")) != std::string::npos);
  fs::remove_all(dir);
}

TEST_CASE("npz: 65536 members need ZIP64's end records, which savez writes and load_npz reads") {
  const fs::path dir = scratch_dir("npz_zip64");
  xp::NamedArrays arrays;
  for (int i = 0; i < 65536; ++i) arrays.emplace_back(std::to_string(i), xp::full<std::int16_t>({}, std::int16_t(i)));
  xp::savez(dir / "many.npz", arrays);
  const xp::NamedArrays loaded = xp::load_npz(dir / "many.npz");
  REQUIRE(loaded.size() == 65536);
  for (const int i : {0, 1, 40000, 65535}) {
    CHECK(loaded[i].first == std::to_string(i));
    CHECK(loaded[i].second.as<std::int16_t>().item() == std::int16_t(i));
  }
  fs::remove_all(dir);
}

TEST_CASE("npz: a malformed archive or member is a ValueError naming the member and the offset") {
  const fs::path dir = scratch_dir("npz_errors");
  const fs::path path = dir / "bad.npz";
  const std::string where = "load_npz(\"" + path.string() + "\"): ";
  const auto error_of = [&](const std::string& bytes) {
    write_bytes(path, bytes);
    try {
      xp::load_npz(path);
    } catch (const xp::ValueError& e) { return std::string(e.what()); }
    return std::string("no ValueError");
  };
  const std::string stored = file_bytes(fixture("savez.npz")), deflated = file_bytes(fixture("savez_compressed.npz"));
  CHECK(error_of(file_bytes(fixture("le_f4.npy"))) ==
        where + "not a zip archive: no end-of-directory record (PK\\5\\6) in its last 152 bytes, from offset 0");
  std::string damaged = stored;
  damaged[184] = static_cast<char>(damaged[184] ^ 0xff);  // i4's first element
  CHECK(error_of(damaged) == where +
                                 "member 'i4.npy': its 152 bytes have the CRC-32 3470973255, the directory says "
                                 "3341769750 (the member is damaged)");
  damaged = deflated;
  damaged[56] = static_cast<char>(0xff);  // i4's first deflate block header: a reserved block type
  CHECK(error_of(damaged) ==
        where + "member 'i4.npy': its deflated data is damaged before byte 57 of the file: invalid block type");
  damaged = stored;
  damaged.replace(damaged.find("\x93NUMPY"), 6, "NUMPY!");  // i4's .npy magic
  CHECK(error_of(damaged) ==
        where + "member 'i4.npy': not a .npy file: it starts with 'NUMPY!\\x01\\x00', not NumPy's '\\x93NUMPY'");
  damaged = stored;
  for (int both = 0; both < 2; ++both) damaged.replace(damaged.find("\u00e9.npy"), 6, "i4.npy");  // local, directory
  CHECK(error_of(damaged) == where + "two members (at offsets 0 and 973) are both the array 'i4'");
  CHECK(error_of(stored.substr(0, 1000)) ==
        where + "not a zip archive: no end-of-directory record (PK\\5\\6) in its last 1000 bytes, from offset 0");
  CHECK(error_of(stored.substr(0, 973) + stored.substr(1100)).starts_with(where + "the end-of-directory record at"));
  CHECK_THROWS_AS(xp::load_npz(dir / "missing.npz"), xp::IOError);
  const xp::ndarray<> x = xp::zeros<float>({2});
  CHECK_THROWS_WITH_AS(xp::savez(path, {{"x", x}, {"x", x}}),
                       ("savez(\"" + path.string() + "\"): two arrays are named 'x'").c_str(), xp::ValueError);
  fs::remove_all(dir);
}
