#pragma once
/// \file
/// NumPy's .npy files (numpy.save / numpy.load): how C++ code trades arrays with Python.
///
/// \code{.cpp}
///   xp::save_npy("x.npy", x);                         // np.load("x.npy") reads it
///   xp::ndarray<> y = xp::load_npy("y.npy", xp::gpu(0));  // what np.save("y.npy", y) wrote, on gpu(0)
/// \endcode
///
/// Every element type: bool, the integers, float16, float32, float64, complex64 and complex128 as NumPy
/// names them; bfloat16 as '<V2', the 2-byte record NumPy writes for ml_dtypes.bfloat16 (in Python,
/// `np.load(path).view(ml_dtypes.bfloat16)`), and a '<V2' file loads as bfloat16.
#include <filesystem>

#include "xp/device.hpp"
#include "xp/export.hpp"
#include "xp/ndarray.hpp"

namespace xp {

/// Writes `a` (of any device and layout) in C order with the header NumPy 2 writes: format 1.0,
/// little-endian, the elements at a multiple of 64 bytes; the same bytes as `np.save` of the same
/// C-contiguous array. Written beside `path` and renamed over it: after a crash
/// the file is the old one or the new one, never a part. IOError when it cannot be written.
XP_API void save_npy(const std::filesystem::path& path, const ndarray<>& a);

/// The file's array, on `device`: formats 1.0, 2.0 and 3.0, either byte order, C or Fortran order (a
/// Fortran-order file gives the transposed view of its elements read in C order, as NumPy gives an
/// F-contiguous array). IOError when the file cannot be read; ValueError, naming what was found at
/// which offset, when it is not NumPy's format, is cut short, holds a type xparray has none for, or a
/// bool element that is neither 0 nor 1.
XP_API ndarray<> load_npy(const std::filesystem::path& path, Device device = cpu(0));

}  // namespace xp
