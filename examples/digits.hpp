#pragma once
// What the training examples share: scikit-learn's 8x8 digits as scripts/setup.sh converts them
// (.data/digits.params), and a progress bar that shows only on a terminal.
#include <unistd.h>

#include <cstdio>
#include <string>
#include <vector>

#include <xp/serialization.hpp>

struct Digits {
  std::vector<float> train_images;  // 64 pixels in [0, 1] per image
  std::vector<std::int32_t> train_labels;
  xp::ndarray<float> test_images;
  xp::ndarray<std::int32_t> test_labels;
};

inline Digits read_digits(const std::string& path) {
  Digits digits;
  for (const auto& [name, array] : xp::load(path)) {
    if (name == "train_data") digits.train_images = array.as<float>().to_vector();
    else if (name == "train_label") digits.train_labels = array.as<std::int32_t>().to_vector();
    else if (name == "test_data") digits.test_images = array.as<float>();
    else if (name == "test_label") digits.test_labels = array.as<std::int32_t>();
  }
  XP_CHECK(!digits.train_labels.empty() && digits.test_labels.size() > 0, xp::ValueError, path,
           " lacks train_data, train_label, test_data or test_label");
  return digits;
}

// A bar on the terminal; nothing when the output is a file.
inline void show_progress(std::size_t done, std::size_t total) {
  static const bool terminal = ::isatty(STDERR_FILENO);
  if (!terminal) return;
  constexpr std::size_t width = 30;
  const std::size_t filled = done * width / total;
  std::fprintf(stderr, "\r  [%s%s] %zu/%zu batches", std::string(filled, '=').c_str(),
               std::string(width - filled, ' ').c_str(), done, total);
  if (done == total) std::fprintf(stderr, "\r%*s\r", static_cast<int>(width + 30), "");
}

inline std::string device_names(const std::vector<xp::Device>& devices) {
  std::string names;
  for (const xp::Device d : devices) names += (names.empty() ? "" : ", ") + d.str();
  return names;
}
