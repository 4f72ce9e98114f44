// load_npz on any bytes: the arrays, or a ValueError saying what is wrong where (the zip records, a
// member's deflate stream or CRC, its .npy). What loads saves with savez and savez_compressed, and both
// load as the same names, types, shapes and elements; saving again writes the same bytes.
#include "fuzz_files.hpp"
#include "xp/error.hpp"
#include "xp/npy.hpp"

namespace {

void check_same(const xp::NamedArrays& got, const xp::NamedArrays& wanted) {
  FUZZ_CHECK(got.size() == wanted.size());
  for (std::size_t i = 0; i < got.size(); ++i) {
    const xp::ndarray<>&a = got[i].second, &b = wanted[i].second;
    FUZZ_CHECK(got[i].first == wanted[i].first);
    FUZZ_CHECK(a.dtype() == b.dtype() && a.shape() == b.shape() && fuzz::elements(a) == fuzz::elements(b));
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  xp::NamedArrays arrays;
  try {
    arrays = xp::load_npz(fuzz::input_file(data, size));
  } catch (const xp::ValueError&) { return 0; }
  const std::filesystem::path stored = fuzz::scratch() / "stored.npz", deflated = fuzz::scratch() / "deflated.npz";
  xp::savez(stored, arrays);
  xp::savez_compressed(deflated, arrays);
  const std::string once = fuzz::file_bytes(stored);
  check_same(xp::load_npz(stored), arrays);
  check_same(xp::load_npz(deflated), arrays);
  xp::savez(stored, xp::load_npz(stored));
  FUZZ_CHECK(fuzz::file_bytes(stored) == once);
  return 0;
}
