#include "core/kernel_disk_cache.hpp"

#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <system_error>

#include "core/content_hash.hpp"

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
std::optional<std::string> load_cached_kernel(std::string_view key) {
  std::ifstream file(entry_path(key), std::ios::binary);
  if (!file) return std::nullopt;
  const std::string bytes((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  const std::size_t header = kMagic.size() + 24;
  if (bytes.size() < header || std::string_view(bytes).substr(0, kMagic.size()) != kMagic) return std::nullopt;
  const std::string_view fields = std::string_view(bytes).substr(kMagic.size());
  const std::uint64_t key_size = get_u64(fields), payload_size = get_u64(fields.substr(8));
  if (key_size != key.size() || bytes.size() - header != key_size + payload_size) return std::nullopt;
  const std::string_view body = std::string_view(bytes).substr(header);
  const ContentHash sum = content_hash(body);
  if (get_u64(fields.substr(16)) != (sum.high ^ sum.low) || body.substr(0, key_size) != key) return std::nullopt;
  return std::string(body.substr(key_size));
}

void store_cached_kernel(std::string_view key, std::string_view payload) {
  static std::atomic<unsigned> counter{0};
  std::error_code error;
  const std::filesystem::path path = entry_path(key);
  std::filesystem::create_directories(path.parent_path(), error);
  if (error) return;
  std::string body(key);
  body.append(payload);
  const ContentHash sum = content_hash(body);
  std::string bytes(kMagic);
  put_u64(bytes, key.size());
  put_u64(bytes, payload.size());
  put_u64(bytes, sum.high ^ sum.low);
  bytes += body;
  std::string name = path.filename().string();
  name.append(".").append(std::to_string(::getpid())).append(".").append(std::to_string(counter++)).append(".tmp");
  const std::filesystem::path temporary = path.parent_path() / name;
  {
    std::ofstream file(temporary, std::ios::binary | std::ios::trunc);
    file.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    if (!file.flush()) {
      file.close();
      std::filesystem::remove(temporary, error);
      return;
    }
  }
  std::filesystem::rename(temporary, path, error);
  if (error) std::filesystem::remove(temporary, error);
}

}  // namespace xp::detail
