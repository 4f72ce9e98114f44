#pragma once
// The tests' folder in the source tree (fixtures, golden files, helper scripts): the one this build was
// configured from, or $XP_TEST_SOURCE_DIR, for a build carried to another machine (scripts/gpu.sh).
#include <cstdlib>
#include <filesystem>

inline std::filesystem::path test_source_dir() {
  const char* moved = std::getenv("XP_TEST_SOURCE_DIR");
  return moved && *moved ? std::filesystem::path(moved) : std::filesystem::path(XP_TEST_SOURCE_DIR);
}
