#pragma once
// Compiled kernels on disk, in XP_CACHE_DIR (default ~/.cache/xparray/kernels). An entry is named
// by the hash of its key (generated source + compile options + compiler identity) and holds the key
// itself, the payload (a shared object or a CUBIN) and a checksum. Entries are written to a
// temporary file and renamed into place, so readers see whole files or none; a file that is short,
// corrupted or holds another key is a miss, never a crash. Failing to write an entry (read-only or
// full disk) only costs the next process a compile. Temporaries that a killed process left behind
// (its pid gone, or older than an hour) are removed at the first store of each process.
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace xp::detail {

// $XP_CACHE_DIR, else $HOME/.cache/xparray/kernels (read at each call: tests change it).
std::filesystem::path kernel_cache_dir();

std::optional<std::string> load_cached_kernel(std::string_view key);
// The bytes of an entry holding `payload` under `key`, and back: the payload when the bytes are whole
// and hold `key`, else nullopt.
std::string make_cache_entry(std::string_view key, std::string_view payload);
std::optional<std::string> parse_cache_entry(std::string_view bytes, std::string_view key);
// Nullopt when stored, else why not ("cannot create /path/x.tmp: Read-only file system").
std::optional<std::string> store_cached_kernel(std::string_view key, std::string_view payload);

}  // namespace xp::detail
