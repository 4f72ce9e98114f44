// load_npy on any bytes: an array, or a ValueError saying what is wrong where. What loads prints (every
// element read as its dtype); saving it and loading that gives the same type, shape and elements, and
// saving again writes the same bytes.
#include <sstream>

#include "fuzz_files.hpp"
#include "xp/error.hpp"
#include "xp/npy.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  xp::ndarray<> a;
  try {
    a = xp::load_npy(fuzz::input_file(data, size));
  } catch (const xp::ValueError&) { return 0; }
  std::ostringstream text;
  text << a;
  const std::filesystem::path saved = fuzz::scratch() / "saved.npy";
  xp::save_npy(saved, a);
  const std::string once = fuzz::file_bytes(saved);
  const xp::ndarray<> again = xp::load_npy(saved);
  FUZZ_CHECK(again.dtype() == a.dtype() && again.shape() == a.shape() && fuzz::elements(again) == fuzz::elements(a));
  xp::save_npy(saved, again);
  FUZZ_CHECK(fuzz::file_bytes(saved) == once);
  return 0;
}
