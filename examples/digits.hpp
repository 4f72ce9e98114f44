#pragma once
// What the training examples share: scikit-learn's 8x8 digits as scripts/setup.sh converts them
// (.data/digits.params), and the progress of an epoch, shown only on a terminal.
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include <xp/progress.hpp>
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

// "epoch  3 [=========     ] 12/24 batches  loss 0.1234  train acc 0.9512" on a terminal, rewritten in
// place (xp::ProgressLine: nothing when the output is a file or a pipe, as under mpirun or CI).
inline void show_progress(xp::ProgressLine& line, int epoch, std::size_t done, std::size_t total,
                          std::optional<double> loss, double accuracy) {
  constexpr std::size_t width = 20;
  const std::size_t filled = done * width / total;
  char text[160];
  std::snprintf(text, sizeof text, "  epoch %2d [%s%s] %zu/%zu batches", epoch, std::string(filled, '=').c_str(),
                std::string(width - filled, ' ').c_str(), done, total);
  std::string shown = text;
  if (loss) {
    std::snprintf(text, sizeof text, "  loss %.4f", *loss);
    shown += text;
  }
  std::snprintf(text, sizeof text, "  train acc %.4f", accuracy);
  line.update(shown + text, done == total);
}

inline std::string device_names(const std::vector<xp::Device>& devices) {
  std::string names;
  for (const xp::Device d : devices) names += (names.empty() ? "" : ", ") + d.str();
  return names;
}
