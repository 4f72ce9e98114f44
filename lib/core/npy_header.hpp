#pragma once
// NumPy's .npy header (numpy/lib/format.py, versions 1.0, 2.0 and 3.0), pure text and bytes:
//   "\x93NUMPY", major, minor, the header's length (u16 little-endian in 1.0, u32 in 2.0 and 3.0), then
//   the header: a Python dict literal {'descr': '<f4', 'fortran_order': False, 'shape': (3, 4), }
//   padded with spaces and ended by '\n' so that the elements start at a multiple of 64 bytes.
// The elements follow, in C order, or in Fortran order when fortran_order is True.
// Errors are ValueErrors that begin with `where` (the caller's name and the file) and name the offset.
#include <cstddef>
#include <string>
#include <string_view>

#include "xp/dtype.hpp"
#include "xp/shape.hpp"

namespace xp::detail {

inline constexpr std::size_t kNpyPreambleBytes = 12;  // the most bytes before the dict: 2.0 and 3.0's

// What the bytes before the dict say.
struct NpyPreamble {
  int major = 0, minor = 0;
  std::size_t dict_offset = 0;  // 10 in 1.0, 12 in 2.0 and 3.0
  std::size_t data_offset = 0;  // the first element's offset
};

// `first` holds the file's first min(size, kNpyPreambleBytes) bytes.
NpyPreamble parse_npy_preamble(std::string_view first, std::string_view where);

struct NpyHeader {
  xp::dtype type = xp::dtype::float32;
  bool big_endian = false;  // the elements' bytes are to be swapped on this (little-endian) machine
  bool fortran_order = false;
  Shape shape;
};

// `dict` is the header from the dict's first byte to the data, which starts at `dict_offset` in the
// file. bfloat16 is descr '<V2' (what NumPy writes for ml_dtypes' bfloat16): the only 2-byte record
// type xparray reads.
NpyHeader parse_npy_header(std::string_view dict, std::size_t dict_offset, std::string_view where);

// The bytes before the elements of a C-order array, as NumPy 2 writes them: version 1.0, the spare
// spaces for growing the first axis, padded to 64 bytes.
std::string npy_header(xp::dtype type, const Shape& shape);

// NumPy's descr of a type on this machine: "<f4", "|b1", "<c16", "<V2" for bfloat16.
std::string npy_descr(xp::dtype type);

}  // namespace xp::detail
