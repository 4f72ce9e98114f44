#pragma once
// A fresh, empty kernel cache directory (XP_CACHE_DIR) for one test, removed after it.
#include <unistd.h>

#include <filesystem>
#include <string>
#include <vector>

#include "scoped_env.hpp"

class TemporaryCache {
 public:
  TemporaryCache()
      : path_(std::filesystem::temp_directory_path() /
              ("xparray-cache-test-" + std::to_string(::getpid()) + "-" + std::to_string(counter_++))),
        env_("XP_CACHE_DIR", path_.string()) {
    std::filesystem::remove_all(path_);
  }
  ~TemporaryCache() { std::filesystem::remove_all(path_); }
  const std::filesystem::path& path() const { return path_; }
  std::vector<std::filesystem::path> entries() const {
    std::vector<std::filesystem::path> files;
    if (std::filesystem::exists(path_))
      for (const auto& e : std::filesystem::directory_iterator(path_)) files.push_back(e.path());
    return files;
  }

 private:
  static inline int counter_ = 0;
  std::filesystem::path path_;
  ScopedEnv env_;
};
