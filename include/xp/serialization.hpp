#pragma once
/// \file
/// Named arrays in a file, in MXNet 1.x's NDArray list format (mx.nd.save / mx.nd.load), so parameter
/// files move between xparray and MXNet either way:
///
/// \code{.cpp}
///   xp::save("net.params", {{"weight", w}, {"bias", b}});
///   for (const auto& [name, array] : xp::load("net.params")) ...
/// \endcode
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "xp/export.hpp"
#include "xp/named_arrays.hpp"
#include "xp/ndarray.hpp"

namespace xp {

/// Written beside `path` and renamed over it (utils::replace_file): after a crash the file is the old
/// one or the new one, never a part; a new file has the mode of any file the program creates (0666 less
/// the umask). Arrays of any device; each keeps its device in the file, as MXNet's.
XP_API void save(const std::filesystem::path& path, const NamedArrays& arrays);

/// The file's arrays, on cpu(0), in its order (names empty when the file has none). IOError when it
/// cannot be read; ValueError when it is not in the format (saying what was found at which offset),
/// holds what xparray has no type for (sparse storage, float16, bfloat16) or a bool element that is
/// neither 0 nor 1.
XP_API NamedArrays load(const std::filesystem::path& path);

}  // namespace xp
