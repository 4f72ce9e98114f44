#pragma once
/// \file
/// NumPy's .npy and .npz files (numpy.save / numpy.load / numpy.savez): how C++ code trades arrays with
/// Python.
///
/// \code{.cpp}
///   xp::save_npy("x.npy", x);                              // np.load("x.npy") reads it
///   xp::ndarray<> y = xp::load_npy("y.npy", xp::gpu(0));   // what np.save("y.npy", y) wrote, on gpu(0)
///   xp::savez("run.npz", {{"w", w}, {"b", b}});            // np.load("run.npz")["w"]
///   for (const auto& [name, array] : xp::load_npz("data.npz")) ...
/// \endcode
///
/// Every element type: bool, the integers, float16, float32, float64, complex64 and complex128 as NumPy
/// names them; bfloat16 as '<V2', the 2-byte record NumPy writes for ml_dtypes.bfloat16 (in Python,
/// `np.load(path).view(ml_dtypes.bfloat16)`), and a '<V2' file loads as bfloat16.
///
/// As NumPy's, the writers add the extension (.npy, .npz) to a path that does not end with it. Files
/// are written beside `path` and renamed over it (utils::replace_file): after a crash the file is the old
/// one or the new one, never a part. IOError when a file cannot be written or read.
#include <filesystem>

#include "xp/device.hpp"
#include "xp/export.hpp"
#include "xp/named_arrays.hpp"
#include "xp/ndarray.hpp"

namespace xp {

/// Writes `a` (of any device and layout) in C order with the header NumPy 2 writes: format 1.0,
/// little-endian, the elements at a multiple of 64 bytes; the same bytes as `np.save` of the same
/// C-contiguous array.
XP_API void save_npy(const std::filesystem::path& path, const ndarray<>& a);

/// The file's array, on `device`: formats 1.0, 2.0 and 3.0, either byte order, C or Fortran order (a
/// Fortran-order file gives the transposed view of its elements read in C order, as NumPy gives an
/// F-contiguous array). ValueError, naming what was found at which offset, when it is not NumPy's
/// format, is cut short, holds a type xparray has none for, or a bool element that is neither 0 nor 1.
XP_API ndarray<> load_npy(const std::filesystem::path& path, Device device = cpu(0));

/// A zip archive of one .npy per array, named "<name>.npy", stored uncompressed (np.savez). ValueError
/// when two arrays have the same name.
XP_API void savez(const std::filesystem::path& path, const NamedArrays& arrays);

/// As savez, each member deflated with zlib's default level (np.savez_compressed).
XP_API void savez_compressed(const std::filesystem::path& path, const NamedArrays& arrays);

/// The archive's arrays on `device`, in its order, named as np.load(path).files names them (a member's
/// name without its ".npy"). Stored and deflated members, ZIP64 archives; each member's CRC-32 is
/// checked. ValueError, naming the member and the offset (in the file for the archive, in the member
/// for its .npy), when the archive or a member is malformed or two members have the same name.
XP_API NamedArrays load_npz(const std::filesystem::path& path, Device device = cpu(0));

}  // namespace xp
