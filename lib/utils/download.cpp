// gluon.utils.download over libcurl. The data goes to an O_TMPFILE file (no name, so a killed process
// leaves nothing) in the destination's directory; once complete and verified it is linked under a
// unique temporary name and renamed over the destination (replace_file).
#include <curl/curl.h>
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <mutex>
#include <random>
#include <string>
#include <thread>

#include "xp/progress.hpp"
#include "xp/utils.hpp"

namespace xp::utils {

namespace {

void init_curl_once() {
  static std::once_flag once;
  std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

std::filesystem::path destination_of(std::string_view url, const DownloadOptions& options) {
  std::string_view name = url.substr(url.find_last_of('/') + 1);
  name = name.substr(0, name.find_first_of("?#"));
  const std::filesystem::path path = options.path.empty() ? std::filesystem::path(".") : options.path;
  if (!options.path.empty() && !std::filesystem::is_directory(path)) return path;
  XP_CHECK(!name.empty(), ValueError, "download: cannot name a file after \"", url,
           "\": set DownloadOptions::path to a file");
  return path / std::string(name);
}

// A file in `directory` with no name yet.
class UnnamedFile {
 public:
  explicit UnnamedFile(const std::filesystem::path& directory) : directory_(directory) {
    fd_ = ::open(directory.c_str(), O_TMPFILE | O_WRONLY | O_CLOEXEC, 0644);
    XP_CHECK(fd_ >= 0, IOError, "download: cannot create a temporary file in ", directory, ": ", std::strerror(errno));
  }
  ~UnnamedFile() {
    if (fd_ >= 0) ::close(fd_);
  }
  UnnamedFile(const UnnamedFile&) = delete;
  UnnamedFile& operator=(const UnnamedFile&) = delete;

  int fd() const { return fd_; }
  std::filesystem::path path() const { return "/proc/self/fd/" + std::to_string(fd_); }
  bool truncate() const { return ::ftruncate(fd_, 0) == 0 && ::lseek(fd_, 0, SEEK_SET) == 0; }

  // Gives the file a unique name in its directory (complete data only) and returns it.
  std::filesystem::path link(const std::filesystem::path& near) const {
    std::random_device random;
    const std::filesystem::path name =
        directory_ / ("." + near.filename().string() + "." + std::to_string(random()) + ".download");
    XP_CHECK(::linkat(AT_FDCWD, path().c_str(), AT_FDCWD, name.c_str(), AT_SYMLINK_FOLLOW) == 0, IOError,
             "download: cannot name the downloaded file ", name, ": ", std::strerror(errno));
    return name;
  }

 private:
  std::filesystem::path directory_;
  int fd_ = -1;
};

std::size_t write_body(char* data, std::size_t size, std::size_t count, void* file) {
  const std::size_t bytes = size * count;
  const int fd = static_cast<const UnnamedFile*>(file)->fd();
  for (std::size_t written = 0; written < bytes;) {
    const ssize_t n = ::write(fd, data + written, bytes - written);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return 0;  // curl reports CURLE_WRITE_ERROR
    written += static_cast<std::size_t>(n);
  }
  return bytes;
}

// The transfer's line on a terminal: "download digits.params: 1.2 MiB of 3.4 MiB (35%), 2.1 MiB/s, ETA 1.0 s".
struct TransferProgress {
  std::string label;  // "download digits.params"
  ProgressLine line;
  std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now();
  double received = 0;

  double seconds() const { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); }
  std::string rate() const { return format_bytes(seconds() > 0 ? received / seconds() : 0) + "/s"; }
};

int report_transfer(void* state, curl_off_t total, curl_off_t now, curl_off_t, curl_off_t) {
  auto& p = *static_cast<TransferProgress*>(state);
  p.received = static_cast<double>(now);
  if (now == 0) return 0;
  std::string text = p.label + ": " + format_bytes(p.received);
  if (total > 0) {
    const double left = static_cast<double>(total - now), rate = p.received / std::max(p.seconds(), 1e-9);
    text += " of " + format_bytes(static_cast<double>(total)) + " (" + std::to_string(100 * now / total) + "%), " +
            p.rate() + ", ETA " + format_duration(left / rate);
  } else {
    text += ", " + p.rate();
  }
  p.line.update(text);
  return 0;
}

// One attempt; the failure as text, or empty on success.
std::string fetch(const std::string& url, const UnnamedFile& file, bool verify_ssl, TransferProgress& progress) {
  const std::unique_ptr<CURL, decltype(&curl_easy_cleanup)> curl(curl_easy_init(), curl_easy_cleanup);
  if (!curl) return "curl_easy_init failed";
  char error[CURL_ERROR_SIZE] = "";
  if (progress.line.shown()) {
    curl_easy_setopt(curl.get(), CURLOPT_XFERINFOFUNCTION, report_transfer);
    curl_easy_setopt(curl.get(), CURLOPT_XFERINFODATA, &progress);
    curl_easy_setopt(curl.get(), CURLOPT_NOPROGRESS, 0L);
  }
  curl_easy_setopt(curl.get(), CURLOPT_URL, url.c_str());
  curl_easy_setopt(curl.get(), CURLOPT_FOLLOWLOCATION, 1L);
  curl_easy_setopt(curl.get(), CURLOPT_WRITEFUNCTION, write_body);
  curl_easy_setopt(curl.get(), CURLOPT_WRITEDATA, &file);
  curl_easy_setopt(curl.get(), CURLOPT_ERRORBUFFER, error);
  curl_easy_setopt(curl.get(), CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(curl.get(), CURLOPT_SSL_VERIFYPEER, verify_ssl ? 1L : 0L);
  curl_easy_setopt(curl.get(), CURLOPT_SSL_VERIFYHOST, verify_ssl ? 2L : 0L);
  const CURLcode code = curl_easy_perform(curl.get());
  if (code != CURLE_OK) return std::string(curl_easy_strerror(code)) + (*error ? std::string(": ") + error : "");
  long status = 0;
  curl_easy_getinfo(curl.get(), CURLINFO_RESPONSE_CODE, &status);
  if (status >= 400) return "HTTP status " + std::to_string(status);
  return "";
}

}  // namespace

std::filesystem::path download(std::string_view url, const DownloadOptions& options) {
  XP_CHECK(options.retries > 0, ValueError, "download: retries must be at least 1, not ", options.retries);
  const std::filesystem::path destination = destination_of(url, options);
  const bool have_hash = !options.sha1_hash.empty();
  if (std::filesystem::exists(destination) && !options.overwrite &&
      (!have_hash || check_sha1(destination, options.sha1_hash)))
    return destination;
  if (!options.verify_ssl) warn("download: unverified HTTPS request to " + std::string(url) + " (verify_ssl = false)");

  const std::filesystem::path directory =
      destination.has_parent_path() ? destination.parent_path() : std::filesystem::path(".");
  std::error_code ignored;
  std::filesystem::create_directories(directory, ignored);
  init_curl_once();
  const UnnamedFile file(directory);
  const std::string address(url);
  std::string failure;
  for (int attempt = 0; attempt < options.retries; ++attempt) {
    if (attempt > 0) std::this_thread::sleep_for(std::chrono::milliseconds(std::min(100 << (attempt - 1), 2000)));
    XP_CHECK(file.truncate(), IOError, "download: cannot reuse the temporary file in ", directory, ": ",
             std::strerror(errno));
    TransferProgress progress{"download " + destination.filename().string(), ProgressLine()};
    failure = fetch(address, file, options.verify_ssl, progress);
    if (failure.empty() && ::fsync(file.fd()) != 0) failure = std::string("fsync: ") + std::strerror(errno);
    if (failure.empty() && have_hash && !check_sha1(file.path(), options.sha1_hash))
      failure = "the downloaded data's SHA-1 is not " + options.sha1_hash;
    if (!failure.empty()) continue;  // the progress line is erased: the next attempt starts its own
    progress.line.finish(progress.label + ": " + format_bytes(progress.received) + " in " +
                         format_duration(progress.seconds()) + " (" + progress.rate() + ")");
    {
      const std::filesystem::path named = file.link(destination);
      try {
        replace_file(named, destination);
      } catch (...) {
        std::filesystem::remove(named, ignored);
        throw;
      }
      return destination;
    }
  }
  throw IOError("download: cannot fetch ", url, " to ", destination, " (", options.retries,
                " attempts); last: ", failure);
}

}  // namespace xp::utils
