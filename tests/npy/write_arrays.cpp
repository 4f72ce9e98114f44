// xp_npy_writer DIR: writes the arrays tests/npy/numpy_reads.py reads with NumPy (make_fixtures.py's
// values, computed here by xparray): x_<code>.npy for every type, transposed_i4.npy (a view), scalar.npy,
// empty.npy, bf16.npy, gpu_f4.npy from gpu(0) when a GPU is present, and the archives stored.npz,
// deflated.npz and many.npz. Linked as users link the library.
#include <complex>
#include <cstdio>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "xp/named_arrays.hpp"
#include "xp/npy.hpp"
#include "xp/xp.hpp"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: xp_npy_writer DIR\n");
    return 2;
  }
  const std::filesystem::path dir = argv[1];
  const xp::ndarray<> signed_values = xp::array<double>({-3, -2, -1, 0, 1, 2}).reshape({2, 3});
  const xp::ndarray<> unsigned_values = xp::array<double>({0, 1, 2, 3, 4, 5}).reshape({2, 3});
  const xp::ndarray<> complex_values = xp::array<std::complex<double>>(
      std::vector<std::complex<double>>{{-3, 0}, {-2, 0.5}, {-1, 1}, {0, 1.5}, {1, 2}, {2, 2.5}}, xp::Shape{2, 3});
  const std::pair<const char*, xp::dtype> types[] = {
      {"b1", xp::dtype::bool_},     {"i1", xp::dtype::int8},       {"u1", xp::dtype::uint8},
      {"i2", xp::dtype::int16},     {"u2", xp::dtype::uint16},     {"i4", xp::dtype::int32},
      {"u4", xp::dtype::uint32},    {"i8", xp::dtype::int64},      {"u8", xp::dtype::uint64},
      {"f2", xp::dtype::float16},   {"f4", xp::dtype::float32},    {"f8", xp::dtype::float64},
      {"c8", xp::dtype::complex64}, {"c16", xp::dtype::complex128}};
  for (const auto& [code, type] : types) {
    const xp::ndarray<> source = code[0] == 'c'   ? xp::ndarray<>(complex_values)
                                 : code[0] == 'u' ? xp::ndarray<>(unsigned_values)
                                                  : xp::ndarray<>(signed_values);
    xp::save_npy(dir / (std::string("x_") + code + ".npy"), source.astype(type));
  }
  xp::save_npy(dir / "transposed_i4.npy", signed_values.astype(xp::dtype::int32).transpose());
  xp::save_npy(dir / "scalar.npy", xp::full<double>({}, 3.5));
  xp::save_npy(dir / "empty.npy", xp::zeros<float>({0, 3}));
  xp::save_npy(dir / "bf16.npy", xp::ndarray<>(xp::array<double>({1, -2.5, 3.25})).astype(xp::dtype::bfloat16));
  if (xp::num_gpus() > 0) xp::save_npy(dir / "gpu_f4.npy", xp::to_gpu(signed_values.astype(xp::dtype::float32)));
  // make_fixtures.py's npz_arrays(), stored and deflated; 65536 members, which take ZIP64's end records.
  const xp::NamedArrays npz = {{"i4", signed_values.astype(xp::dtype::int32)},
                               {"c16", complex_values},
                               {"scalar", xp::full<double>({}, 3.5)},
                               {"fortran_be", (xp::arange<float>(0, 24).reshape({2, 3, 4}) - 5.f)},
                               {"\u00e9", xp::zeros<bool>({0})}};
  xp::savez(dir / "stored.npz", npz);
  xp::savez_compressed(dir / "deflated.npz", npz);
  xp::NamedArrays many;
  for (int i = 0; i < 65536; ++i) many.emplace_back("a" + std::to_string(i), xp::full<std::int32_t>({}, i));
  xp::savez(dir / "many.npz", many);
  return 0;
}
