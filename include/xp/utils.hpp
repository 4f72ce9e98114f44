#pragma once
/// \file
/// MXNet's gluon.utils for multi-device training loops (namespace xp::utils):
/// \code{.cpp}
///   auto parts = xp::utils::split_and_load(batch, {xp::gpu(0), xp::gpu(1)});  // one slice per device
///   float norm = xp::utils::clip_global_norm(gradients, 1.0f);                // rescales in place
///   xp::utils::check_sha1(path, "da39a3ee..."); xp::utils::replace_file(tmp, path);
/// \endcode
#include <cmath>
#include <filesystem>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "xp/ndarray.hpp"

namespace xp::utils {

/// \cond DETAIL
namespace detail {
std::vector<xp::detail::ArrayCore> split_data(const xp::detail::ArrayCore& data, int num_slice, int batch_axis,
                                              bool even_split);
std::vector<xp::detail::ArrayCore> split_and_load(const xp::detail::ArrayCore& data, std::span<const Device> devices,
                                                  int batch_axis, bool even_split);
/// The global 2-norm of the arrays; scales them in place (each on its device) when it exceeds max_norm.
double clip_global_norm(std::span<const xp::detail::ArrayCore> arrays, double max_norm, bool check_isfinite);
}  // namespace detail
/// \endcond

/// num_slice slices along batch_axis (negative counts from the end), views of data, as MXNet 1.9:
/// even_split: every slice the same size, else ValueError with MXNet's text; otherwise the first
/// size % num_slice slices take one more row (10 into 4: 3, 3, 2, 2), and an axis shorter than num_slice
/// leaves the trailing slices empty (5 into 7: five of 1, two of 0). Always num_slice slices.
template <class T>
std::vector<ndarray<T>> split_data(const ndarray<T>& data, int num_slice, int batch_axis = 0, bool even_split = true) {
  std::vector<ndarray<T>> slices;
  for (auto& s : detail::split_data(data, num_slice, batch_axis, even_split)) slices.emplace_back(s);
  return slices;
}

/// split_data into devices.size() slices, slice k copied straight to devices[k] (one already there is
/// not copied: as_in_context): one slice per device, empty ones included.
template <class T>
std::vector<ndarray<T>> split_and_load(const ndarray<T>& data, std::span<const Device> devices, int batch_axis = 0,
                                       bool even_split = true) {
  std::vector<ndarray<T>> slices;
  for (auto& s : detail::split_and_load(data, devices, batch_axis, even_split)) slices.emplace_back(s);
  return slices;
}
/// The same with braces: split_and_load(x, {cpu(0), cpu(1)}).
template <class T>
std::vector<ndarray<T>> split_and_load(const ndarray<T>& data, std::initializer_list<Device> devices,
                                       int batch_axis = 0, bool even_split = true) {
  return split_and_load(data, std::span<const Device>(devices.begin(), devices.size()), batch_axis, even_split);
}

/// Rescales the arrays (in place, each on its own device) so that their global 2-norm
/// sqrt(sum of squared 2-norms) is at most max_norm: scale = min(max_norm / (norm + 1e-8), 1). Returns
/// the norm. With check_isfinite, a NaN or infinite norm leaves the arrays untouched and is reported
/// through the warning handler (and the returned value).
template <class T>
T clip_global_norm(std::vector<ndarray<T>>& arrays, T max_norm, bool check_isfinite = true) {
  static_assert(std::is_floating_point_v<T>, "clip_global_norm: arrays of float or double");
  const std::vector<xp::detail::ArrayCore> cores(arrays.begin(), arrays.end());
  return static_cast<T>(detail::clip_global_norm(cores, max_norm, check_isfinite));
}

/// Where warnings go (default: stderr, "xparray warning: ..."); a null handler restores the default.
using WarningHandler = std::function<void(std::string_view message)>;
void set_warning_handler(WarningHandler handler);  ///< see WarningHandler
void warn(std::string_view message);  ///< passes `message` to the handler

/// Whether the file's SHA-1 is sha1_hex (40 hex digits, any case); read in bounded chunks.
/// IOError naming the file when it cannot be read; ValueError when sha1_hex is not 40 hex digits.
bool check_sha1(const std::filesystem::path& path, std::string_view sha1_hex);

/// download's options (gluon.utils.download's arguments).
struct DownloadOptions {
  std::filesystem::path path{};  ///< a file, or a directory (the file name comes from the URL); empty: "."
  bool overwrite = false;      ///< else an existing file is kept (unless its SHA-1 is not sha1_hash)
  std::string sha1_hash{};     ///< the expected SHA-1 in hex; empty: not checked
  int retries = 5;             ///< attempts in all, at least 1
  bool verify_ssl = true;      ///< false: no certificate checks (reported through the warning handler)
};

/// Fetches url (http://, https://, file://) with libcurl into an unnamed file in the destination's
/// directory, checks its SHA-1, then gives it its name atomically: the destination is never a partial
/// or unverified file, even when the process is killed. HTTP statuses >= 400, connection failures and
/// SHA-1 mismatches are retried, waiting 0.1 s, 0.2 s, ... (at most 2 s) in between; after the last
/// attempt, an IOError names the URL and the last failure, and nothing is left behind. Returns the path.
std::filesystem::path download(std::string_view url, const DownloadOptions& options = {});

/// Renames src over dst atomically, src's data flushed to disk first (and the directory after), so
/// dst is the old file or the whole new one, even across a crash. IOError naming both paths otherwise;
/// dst is then untouched.
void replace_file(const std::filesystem::path& src, const std::filesystem::path& dst);

}  // namespace xp::utils
