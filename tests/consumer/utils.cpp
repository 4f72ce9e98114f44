#include <xp/utils.hpp>

#include <filesystem>
#include <fstream>
#include <iostream>

int main() {
  const std::filesystem::path file = std::filesystem::temp_directory_path() / "xparray_consumer_utils.txt";
  std::ofstream(file, std::ios::binary) << "abc";
  const bool ok = xp::utils::check_sha1(file, "a9993e364706816aba3e25717850c26c9cd0d89d") &&
                  !xp::utils::check_sha1(file, "0000000000000000000000000000000000000000");
  std::filesystem::remove(file);
  std::cout << (ok ? "consumer_utils: ok" : "consumer_utils: WRONG SHA-1") << "\n";
  return ok ? 0 : 1;
}
