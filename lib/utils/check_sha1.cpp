// gluon.utils.check_sha1: SHA-1 through OpenSSL's EVP interface, over the file in 1 MiB chunks.
#include <openssl/evp.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <memory>
#include <vector>

#include "xp/utils.hpp"

namespace xp::utils {

bool check_sha1(const std::filesystem::path& path, std::string_view sha1_hex) {
  XP_CHECK(sha1_hex.size() == 40 && std::all_of(sha1_hex.begin(), sha1_hex.end(),
                                                [](char c) { return std::isxdigit(static_cast<unsigned char>(c)); }),
           ValueError, "check_sha1: \"", sha1_hex, "\" is not a SHA-1 (40 hexadecimal digits)");
  std::ifstream file(path, std::ios::binary);
  XP_CHECK(file.is_open(), IOError, "check_sha1: cannot open ", path, ": ", std::strerror(errno));
  const std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)> context(EVP_MD_CTX_new(), EVP_MD_CTX_free);
  XP_CHECK(context && EVP_DigestInit_ex(context.get(), EVP_sha1(), nullptr) == 1, Error,
           "check_sha1: OpenSSL cannot start a SHA-1");
  std::vector<char> buffer(1 << 20);
  while (file) {
    file.read(buffer.data(), static_cast<std::streamsize>(buffer.size()));
    const auto got = static_cast<std::size_t>(file.gcount());
    if (got > 0) EVP_DigestUpdate(context.get(), buffer.data(), got);
  }
  XP_CHECK(file.eof(), IOError, "check_sha1: cannot read ", path, ": ", std::strerror(errno));
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  EVP_DigestFinal_ex(context.get(), digest, &length);
  static constexpr char digits[] = "0123456789abcdef";
  for (unsigned int k = 0; k < length; ++k) {
    if (digits[digest[k] >> 4] != std::tolower(static_cast<unsigned char>(sha1_hex[2 * k])) ||
        digits[digest[k] & 15] != std::tolower(static_cast<unsigned char>(sha1_hex[2 * k + 1])))
      return false;
  }
  return true;
}

}  // namespace xp::utils
