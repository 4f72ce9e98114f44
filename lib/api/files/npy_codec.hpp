#pragma once
// One .npy's bytes to an array and back, wherever the bytes are: a file of their own (save_npy,
// load_npy) or a member of an .npz archive, stored or deflated (savez, load_npz).
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>

#include "xp/device.hpp"
#include "xp/ndarray.hpp"

namespace xp::detail {

// The bytes of one .npy, read front to back once.
class NpySource {
 public:
  virtual ~NpySource() = default;
  virtual std::uint64_t size() const = 0;
  // The next n bytes; the reader stays within size().
  virtual void read(std::size_t n, void* out) = 0;
};

// The array the bytes hold, on `device`. ValueErrors begin with `where` and name offsets from the .npy's
// first byte.
ndarray<> read_npy(NpySource& source, Device device, const std::string& where);

// What a .npy of `a` holds: the header, then the elements in C order (a host array's own memory when it
// is C-contiguous, else a copy kept in `staged`).
struct NpyBytes {
  std::string header;
  std::string_view elements;
  std::unique_ptr<char[]> staged;
};
NpyBytes npy_bytes(const ndarray<>& a);

// `path` as NumPy's writers take it: with `suffix` (".npy", ".npz") added unless it ends with it.
std::filesystem::path with_suffix(std::filesystem::path path, std::string_view suffix);

}  // namespace xp::detail
