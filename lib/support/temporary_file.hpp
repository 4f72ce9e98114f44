#pragma once
// Files replaced whole (parameter files, kernel cache entries) are written to a temporary beside them
// and renamed over them. The temporary is "<name>.<pid>.<n>.tmp": new (O_EXCL), with the mode a program
// creating a file gets (0666 less the umask; mkstemp's 0600 would make saved files private), and named
// after its writer's pid so that a later process can tell one left by a killed writer.
#include <filesystem>
#include <span>
#include <string>
#include <string_view>

namespace xp::detail {

struct WrittenTemporary {
  std::filesystem::path path;  // the temporary holding all the bytes, when written
  std::string failure;  // else why not ("cannot write /d/x.1.0.tmp: No space left on device")
};

// `parts` one after another. On failure nothing is left behind.
WrittenTemporary write_temporary_beside(const std::filesystem::path& path, std::span<const std::string_view> parts);
WrittenTemporary write_temporary_beside(const std::filesystem::path& path, std::string_view bytes);

// Writes `parts` beside `path` and renames the result over it (utils::replace_file): after a crash the
// file is the old one or the new one, never a part. IOError beginning with `op` when it cannot.
void write_file_replacing(const std::filesystem::path& path, std::span<const std::string_view> parts,
                          std::string_view op);

}  // namespace xp::detail
