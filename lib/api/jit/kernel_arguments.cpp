#include "api/jit/kernel_arguments.hpp"

#include <cstring>

#include "core/layout.hpp"
#include "core/scalar_cast.hpp"

namespace xp::detail {

std::uint64_t* KernelArguments::begin_argument() {
  XP_ASSERT(count_ < pointers_.size());
  std::uint64_t* start = words_.data() + used_;
  pointers_[count_++] = start;
  return start;
}

void KernelArguments::push(std::uint64_t word) {
  XP_ASSERT(used_ < words_.size());
  words_[used_++] = word;
}

void KernelArguments::add_pointer(const void* data) {
  begin_argument();
  push(reinterpret_cast<std::uintptr_t>(data));
}

void KernelArguments::add_strided(const void* data, const Strides& strides, const Strides* more) {
  begin_argument();
  push(reinterpret_cast<std::uintptr_t>(data));
  for (int d = 0; d < strides.ndim(); ++d) push(static_cast<std::uint64_t>(strides[d]));
  if (more)
    for (int d = 0; d < more->ndim(); ++d) push(static_cast<std::uint64_t>((*more)[d]));
  if (strides.ndim() + (more ? more->ndim() : 0) == 0) push(0);  // xpj::strided<T, 0> holds one stride
}

void KernelArguments::add_raw(const ArrayCore& a) {
  begin_argument();
  push(reinterpret_cast<std::uintptr_t>(a.raw_data()));
  push(a.size());
  const int ndim = a.ndim();
  for (int d = 0; d < ndim; ++d) push(static_cast<std::uint64_t>(a.shape()[d]));
  if (ndim == 0) push(1);
  for (int d = 0; d < ndim; ++d) push(static_cast<std::uint64_t>(a.strides()[d]));
  if (ndim == 0) push(0);
}

void KernelArguments::add_scalar(const ScalarValue& value, xp::dtype type) {
  if (itemsize(type) > sizeof(std::uint64_t) && used_ % 2 != 0) ++used_;  // complex128: 16-byte aligned
  begin_argument();
  const ElementBits bits = cast_scalar(value, type);  // as CuPy: a C cast to the parameter's type
  std::array<std::uint64_t, 2> words{};
  std::memcpy(words.data(), &bits, sizeof bits);
  for (std::size_t k = 0; k * sizeof(std::uint64_t) < itemsize(type); ++k) push(words[k]);
}

void KernelArguments::add_size(std::int64_t size) {
  begin_argument();
  push(static_cast<std::uint64_t>(size));
}

void KernelArguments::add_shape(const Shape& shape) {
  begin_argument();
  push(static_cast<std::uint64_t>(numel(shape)));
  for (int d = 0; d < shape.ndim(); ++d) push(static_cast<std::uint64_t>(shape[d]));
  if (shape.ndim() == 0) push(1);
}

}  // namespace xp::detail
