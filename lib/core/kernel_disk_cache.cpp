#include "core/kernel_disk_cache.hpp"

#include <signal.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <mutex>
#include <set>
#include <system_error>

#include "core/content_hash.hpp"
#include "support/temporary_file.hpp"

namespace xp::detail {

namespace {

constexpr std::string_view kMagic = "xparray-kernel-1\n";

std::filesystem::path entry_path(std::string_view key) {
  return kernel_cache_dir() / (content_hash(key).hex() + ".bin");
}

void put_u64(std::string& out, std::uint64_t v) {
  for (int k = 0; k < 8; ++k) out.push_back(static_cast<char>((v >> (8 * k)) & 0xff));
}

std::uint64_t get_u64(std::string_view in) {
  std::uint64_t v = 0;
  for (int k = 0; k < 8; ++k) v |= static_cast<std::uint64_t>(static_cast<unsigned char>(in[k])) << (8 * k);
  return v;
}

}  // namespace

std::filesystem::path kernel_cache_dir() {
  if (const char* dir = std::getenv("XP_CACHE_DIR"); dir && *dir) return dir;
  const char* home = std::getenv("HOME");
  return std::filesystem::path(home && *home ? home : "/tmp") / ".cache" / "xparray" / "kernels";
}

// Layout: magic, key size, payload size, checksum of key and payload, key, payload.
std::optional<std::string> parse_cache_entry(std::string_view bytes, std::string_view key) {
  const std::size_t header = kMagic.size() + 24;
  if (bytes.size() < header || bytes.substr(0, kMagic.size()) != kMagic) return std::nullopt;
  const std::string_view fields = bytes.substr(kMagic.size());
  const std::uint64_t key_size = get_u64(fields), payload_size = get_u64(fields.substr(8));
  // Compared without adding: sizes read from a corrupted file may be anything.
  const std::uint64_t body_size = bytes.size() - header;
  if (key_size != key.size() || payload_size > body_size || body_size - payload_size != key_size) return std::nullopt;
  const std::string_view body = bytes.substr(header);
  const ContentHash sum = content_hash(body);
  if (get_u64(fields.substr(16)) != (sum.high ^ sum.low) || body.substr(0, key_size) != key) return std::nullopt;
  return std::string(body.substr(key_size));
}

std::string make_cache_entry(std::string_view key, std::string_view payload) {
  std::string body(key);
  body.append(payload);
  const ContentHash sum = content_hash(body);
  std::string bytes(kMagic);
  put_u64(bytes, key.size());
  put_u64(bytes, payload.size());
  put_u64(bytes, sum.high ^ sum.low);
  return bytes + body;
}

std::optional<std::string> load_cached_kernel(std::string_view key) {
  std::ifstream file(entry_path(key), std::ios::binary);
  if (!file) return std::nullopt;
  const std::string bytes((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  return parse_cache_entry(bytes, key);
}

namespace {

constexpr std::string_view kTemporarySuffix = ".tmp";

// Whether a temporary (write_temporary_beside's "<entry>.<pid>.<n>.tmp") was left by a process that no
// longer runs (killed between writing and renaming), or is too old to be anyone's write in progress (a
// cache shared by several machines).
bool is_stale(const std::filesystem::directory_entry& entry) {
  const std::string name = entry.path().filename().string();
  const std::size_t end = name.size() - kTemporarySuffix.size();
  const std::size_t counter_dot = name.rfind('.', end - 1);
  const std::size_t pid_dot =
      counter_dot == std::string::npos || counter_dot == 0 ? std::string::npos : name.rfind('.', counter_dot - 1);
  if (pid_dot != std::string::npos) {
    const std::string pid_text = name.substr(pid_dot + 1, counter_dot - pid_dot - 1);
    char* parsed_end = nullptr;
    const long pid = std::strtol(pid_text.c_str(), &parsed_end, 10);
    if (!pid_text.empty() && *parsed_end == '\0' && pid > 0 && ::kill(static_cast<pid_t>(pid), 0) != 0 &&
        errno == ESRCH)
      return true;
  }
  std::error_code error;
  const auto written = entry.last_write_time(error);
  return !error && std::filesystem::file_time_type::clock::now() - written > std::chrono::hours(1);
}

// Once per process and directory: the first store sweeps out stale temporaries.
void remove_stale_temporaries(const std::filesystem::path& dir) {
  static std::mutex mutex;
  static std::set<std::filesystem::path> swept;
  {
    const std::lock_guard lock(mutex);
    if (!swept.insert(dir).second) return;
  }
  std::error_code error;
  for (std::filesystem::directory_iterator it(dir, error), end; !error && it != end; it.increment(error)) {
    const std::string name = it->path().filename().string();
    if (name.size() > kTemporarySuffix.size() && name.ends_with(kTemporarySuffix) && is_stale(*it)) {
      std::error_code ignored;  // another process may be removing it too
      std::filesystem::remove(it->path(), ignored);
    }
  }
}

}  // namespace

std::optional<std::string> store_cached_kernel(std::string_view key, std::string_view payload) {
  const std::filesystem::path path = entry_path(key);
  const std::filesystem::path dir = path.parent_path();
  std::error_code error;
  std::filesystem::create_directories(dir, error);
  if (error) return "cannot create " + dir.string() + ": " + error.message();
  remove_stale_temporaries(dir);
  const WrittenTemporary written = write_temporary_beside(path, make_cache_entry(key, payload));
  if (!written.failure.empty()) return written.failure;
  const std::filesystem::path& temporary = written.path;
  std::filesystem::rename(temporary, path, error);
  if (error) {
    std::error_code ignored;
    std::filesystem::remove(temporary, ignored);
    return "cannot rename " + temporary.string() + " to " + path.string() + ": " + error.message();
  }
  return std::nullopt;
}

}  // namespace xp::detail
