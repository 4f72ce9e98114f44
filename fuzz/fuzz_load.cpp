// The parameter-file loader (MXNet's NDArray list format) on any bytes: arrays, or a ValueError
// saying what is wrong where. What loads prints (every element read as its dtype), and saving it,
// loading that and saving again writes the same bytes: load keeps everything save writes.
#include <sstream>

#include "fuzz_files.hpp"
#include "xp/error.hpp"
#include "xp/serialization.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  xp::NamedArrays arrays;
  try {
    arrays = xp::load(fuzz::input_file(data, size));
  } catch (const xp::ValueError&) { return 0; }
  std::ostringstream text;
  for (const auto& [name, array] : arrays) text << name << array;
  const std::filesystem::path saved = fuzz::scratch() / "saved.params";
  xp::save(saved, arrays);
  const std::string once = fuzz::file_bytes(saved);
  xp::save(saved, xp::load(saved));
  FUZZ_CHECK(fuzz::file_bytes(saved) == once);
  return 0;
}
