#pragma once
/// \file
/// MXNet's gluon.utils for files (namespace xp::utils, in the xp::utils library, with libcurl and
/// OpenSSL; replace_file is in libxparray):
/// \code{.cpp}
///   xp::utils::download(url, {.path = "data/", .sha1_hash = "da39a3ee..."});
///   xp::utils::check_sha1(path, "da39a3ee..."); xp::utils::replace_file(tmp, path);
/// \endcode
#include <filesystem>
#include <string>
#include <string_view>

#include "xp/export.hpp"

namespace xp::utils {

/// Whether the file's SHA-1 is sha1_hex (40 hex digits, any case); read in bounded chunks.
/// IOError naming the file when it cannot be read; ValueError when sha1_hex is not 40 hex digits.
XP_API bool check_sha1(const std::filesystem::path& path, std::string_view sha1_hex);

/// download's options (gluon.utils.download's arguments).
struct XP_API DownloadOptions {
  std::filesystem::path path{};  ///< a file, or a directory (the file name comes from the URL); empty: "."
  bool overwrite = false;  ///< else an existing file is kept (unless its SHA-1 is not sha1_hash)
  std::string sha1_hash{};  ///< the expected SHA-1 in hex; empty: not checked
  int retries = 5;  ///< attempts in all, at least 1
  bool verify_ssl = true;  ///< false: no certificate checks (reported through the warning handler)
};

/// Fetches url (http://, https://, file://) with libcurl into an unnamed file in the destination's
/// directory, checks its SHA-1, then gives it its name atomically: the destination is never a partial
/// or unverified file, even when the process is killed. HTTP statuses >= 400, connection failures and
/// SHA-1 mismatches are retried, waiting 0.1 s, 0.2 s, ... (at most 2 s) in between; after the last
/// attempt, an IOError names the URL and the last failure, and nothing is left behind. Returns the path.
XP_API std::filesystem::path download(std::string_view url, const DownloadOptions& options = {});

/// Renames src over dst atomically, src's data flushed to disk first (and the directory after), so
/// dst is the old file or the whole new one, even across a crash. IOError naming both paths otherwise;
/// dst is then untouched.
XP_API void replace_file(const std::filesystem::path& src, const std::filesystem::path& dst);

}  // namespace xp::utils
