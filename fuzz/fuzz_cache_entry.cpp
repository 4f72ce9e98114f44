// The kernel disk cache's entry reader, on two kinds of input: the input itself read as a file (the
// first byte says how long the key is, taken from what follows), and an entry the writer made for a
// key and payload from the input, then cut short or with one byte changed as the input says. A whole
// entry gives back its payload; any damage gives a miss, never a wrong payload or a crash.
#include <fuzzer/FuzzedDataProvider.h>

#include <cstddef>
#include <cstdint>
#include <string>

#include "core/kernel_disk_cache.hpp"
#include "fuzz_check.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  FuzzedDataProvider input(data, size);
  {
    const std::string key = input.ConsumeBytesAsString(input.ConsumeIntegral<std::uint8_t>());
    const std::string file = input.ConsumeRemainingBytesAsString();
    if (const auto payload = xp::detail::parse_cache_entry(file, key)) FUZZ_CHECK(file.ends_with(key + *payload));
  }
  FuzzedDataProvider again(data, size);
  const std::string key = again.ConsumeRandomLengthString(256);
  const std::string payload = again.ConsumeRandomLengthString(4096);
  const std::string entry = xp::detail::make_cache_entry(key, payload);
  FUZZ_CHECK(xp::detail::parse_cache_entry(entry, key) == payload);
  std::string damaged = entry;
  const std::size_t at = again.ConsumeIntegralInRange<std::size_t>(0, entry.size() - 1);
  if (again.ConsumeBool()) {
    damaged.resize(at);
  } else {
    const auto flip = again.ConsumeIntegralInRange<std::uint8_t>(1, 255);
    damaged[at] = static_cast<char>(damaged[at] ^ flip);
  }
  FUZZ_CHECK(!xp::detail::parse_cache_entry(damaged, key).has_value());
  return 0;
}
