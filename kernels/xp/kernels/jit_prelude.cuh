// What every run-time kernel sees before its own code, under NVRTC and under the host compiler.
// The argument structs are laid out as the library writes them (lib/api/user_kernel_args.cpp):
// 8-byte fields only, so both sides agree without padding rules.
#ifndef XP_KERNELS_JIT_PRELUDE_CUH
#define XP_KERNELS_JIT_PRELUDE_CUH
#if defined(__CUDACC__)
#define XPJ_DEVICE __device__ __forceinline__
#else
#include <math.h>
#define XPJ_DEVICE inline
// CUDA's device math has min and max over every arithmetic type; host kernels get the same names.
template <class T>
inline T min(T a, T b) { return b < a ? b : a; }
template <class T>
inline T max(T a, T b) { return a < b ? b : a; }
#endif

namespace xpj {

typedef long long index_t;

// The loop's shape: size and extents (C order).
template <int N>
struct shape {
  index_t size;
  index_t extent[N > 0 ? N : 1];
};

// A non-raw array operand of a strided loop: its data and its strides (in elements) over the loop's
// shape.
template <class T, int N>
struct strided {
  T* data;
  index_t stride[N > 0 ? N : 1];
};

// A raw array parameter: indexed by hand, x[i] is element i in C order of the array's own shape.
template <class T, int N, bool Contiguous>
struct raw_array {
  T* data_;
  index_t size_;
  index_t shape_[N > 0 ? N : 1];
  index_t strides_[N > 0 ? N : 1];

  XPJ_DEVICE index_t size() const { return size_; }
  XPJ_DEVICE const index_t* shape() const { return shape_; }
  XPJ_DEVICE const index_t* strides() const { return strides_; }
  XPJ_DEVICE T& operator[](index_t i) const {
    if (Contiguous) return data_[i];
    index_t offset = 0;
    for (int d = N - 1; d >= 0; --d) {
      offset += (i % shape_[d]) * strides_[d];
      i /= shape_[d];
    }
    return data_[offset];
  }
};

// CuPy's _ind (elementwise) and _in_ind / _out_ind (reductions): the position and the size.
struct position {
  index_t index, count;
  XPJ_DEVICE index_t get() const { return index; }
  XPJ_DEVICE index_t size() const { return count; }
};

#if !defined(__CUDACC__)
// combine over element(begin) ... element(end - 1), begin < end, in pairwise order: blocks of 128
// in 8 interleaved lanes, blocks merged as a binary counter. The error grows with log(n), as NumPy's
// sums, and the lanes leave the compiler independent chains to vectorise.
template <class R, class Element, class Combine>
inline R reduce_range(const Element& element, const Combine& combine, index_t begin, index_t end) {
  R stack[64];
  int depth = 0;
  index_t blocks = 0;
  for (index_t b = begin; b < end; b += 128) {
    const index_t e = end - b < 128 ? end : b + 128;
    R block;
    if (e - b >= 8) {
      R lane[8] = {element(b), element(b + 1), element(b + 2), element(b + 3),
                   element(b + 4), element(b + 5), element(b + 6), element(b + 7)};
      index_t j = b + 8;
      for (; j + 8 <= e; j += 8)
        for (int k = 0; k < 8; ++k) lane[k] = combine(lane[k], element(j + k));
      for (; j < e; ++j) lane[0] = combine(lane[0], element(j));
      block = combine(combine(combine(lane[0], lane[1]), combine(lane[2], lane[3])),
                      combine(combine(lane[4], lane[5]), combine(lane[6], lane[7])));
    } else {
      block = element(b);
      for (index_t j = b + 1; j < e; ++j) block = combine(block, element(j));
    }
    stack[depth++] = block;
    for (index_t n = ++blocks; (n & 1) == 0; n >>= 1) {
      stack[depth - 2] = combine(stack[depth - 2], stack[depth - 1]);
      --depth;
    }
  }
  R total = stack[depth - 1];
  for (int k = depth - 2; k >= 0; --k) total = combine(stack[k], total);
  return total;
}
#endif

}  // namespace xpj
#endif  // XP_KERNELS_JIT_PRELUDE_CUH
