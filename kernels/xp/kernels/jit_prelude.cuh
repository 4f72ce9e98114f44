// What every run-time kernel sees before its own code, under NVRTC and under the host compiler.
// The argument structs are laid out as the library writes them (lib/api/jit/kernel_arguments.cpp):
// 8-byte fields only, so both sides agree without padding rules. Exempt from clang-format: this text
// goes into every generated source, where one line per short definition keeps it small.
// clang-format off
#ifndef XP_KERNELS_JIT_PRELUDE_CUH
#define XP_KERNELS_JIT_PRELUDE_CUH
// Which argument types the math functions take as integers (computed as double, as <cmath> does).
namespace xpj_math {
template <class T> struct integer { static const bool value = false; };
template <> struct integer<bool> { static const bool value = true; };
template <> struct integer<char> { static const bool value = true; };
template <> struct integer<signed char> { static const bool value = true; };
template <> struct integer<unsigned char> { static const bool value = true; };
template <> struct integer<short> { static const bool value = true; };
template <> struct integer<unsigned short> { static const bool value = true; };
template <> struct integer<int> { static const bool value = true; };
template <> struct integer<unsigned> { static const bool value = true; };
template <> struct integer<long> { static const bool value = true; };
template <> struct integer<unsigned long> { static const bool value = true; };
template <> struct integer<long long> { static const bool value = true; };
template <> struct integer<unsigned long long> { static const bool value = true; };
template <bool B, class T> struct only_if {};
template <class T> struct only_if<true, T> { typedef T type; };
}  // namespace xpj_math

#if defined(__CUDACC__)
#define XPJ_DEVICE __device__ __forceinline__
#ifndef XP_HOST_DEVICE  // the library's annotation, in texts the JIT embeds after the prelude
#define XP_HOST_DEVICE __host__ __device__
#endif
// CUDA declares the math functions for float and double only: an integer argument, sqrt(n), would
// match both. As on the host (and in <cmath>), integers are computed as double.
#define XPJ_INTEGER_MATH1(name)                                                                     \
  template <class I>                                                                                \
  __device__ __forceinline__ typename xpj_math::only_if<xpj_math::integer<I>::value, double>::type  \
  name(I x) {                                                                                       \
    return name(static_cast<double>(x));                                                            \
  }
#define XPJ_INTEGER_MATH2(name)                                                                     \
  template <class I, class J>                                                                       \
  __device__ __forceinline__ typename xpj_math::only_if<                                            \
      xpj_math::integer<I>::value && xpj_math::integer<J>::value, double>::type                     \
  name(I x, J y) {                                                                                  \
    return name(static_cast<double>(x), static_cast<double>(y));                                    \
  }
XPJ_INTEGER_MATH1(acos) XPJ_INTEGER_MATH1(acosh) XPJ_INTEGER_MATH1(asin) XPJ_INTEGER_MATH1(asinh)
XPJ_INTEGER_MATH1(atan) XPJ_INTEGER_MATH1(atanh) XPJ_INTEGER_MATH1(cbrt) XPJ_INTEGER_MATH1(ceil)
XPJ_INTEGER_MATH1(cos) XPJ_INTEGER_MATH1(cosh) XPJ_INTEGER_MATH1(erf) XPJ_INTEGER_MATH1(erfc)
XPJ_INTEGER_MATH1(exp) XPJ_INTEGER_MATH1(exp2) XPJ_INTEGER_MATH1(exp10) XPJ_INTEGER_MATH1(expm1)
XPJ_INTEGER_MATH1(fabs) XPJ_INTEGER_MATH1(floor) XPJ_INTEGER_MATH1(lgamma) XPJ_INTEGER_MATH1(log)
XPJ_INTEGER_MATH1(log10) XPJ_INTEGER_MATH1(log1p) XPJ_INTEGER_MATH1(log2) XPJ_INTEGER_MATH1(logb)
XPJ_INTEGER_MATH1(nearbyint) XPJ_INTEGER_MATH1(rint) XPJ_INTEGER_MATH1(round) XPJ_INTEGER_MATH1(sin)
XPJ_INTEGER_MATH1(sinh) XPJ_INTEGER_MATH1(sqrt) XPJ_INTEGER_MATH1(tan) XPJ_INTEGER_MATH1(tanh)
XPJ_INTEGER_MATH1(tgamma) XPJ_INTEGER_MATH1(trunc)
XPJ_INTEGER_MATH2(atan2) XPJ_INTEGER_MATH2(copysign) XPJ_INTEGER_MATH2(fdim) XPJ_INTEGER_MATH2(fmax)
XPJ_INTEGER_MATH2(fmin) XPJ_INTEGER_MATH2(fmod) XPJ_INTEGER_MATH2(hypot) XPJ_INTEGER_MATH2(nextafter)
XPJ_INTEGER_MATH2(pow) XPJ_INTEGER_MATH2(remainder)
#undef XPJ_INTEGER_MATH1
#undef XPJ_INTEGER_MATH2
#else
#define XPJ_DEVICE inline
#ifndef XP_HOST_DEVICE
#define XP_HOST_DEVICE
#endif
// CUDA's device math has min and max over every arithmetic type; host kernels get the same names.
template <class T>
inline T min(T a, T b) { return b < a ? b : a; }
template <class T>
inline T max(T a, T b) { return a < b ? b : a; }

// The functions of <math.h> as CUDA has them: double and float overloads, the f-suffixed names, and
// integers computed as double. Defined over the compiler's builtins, which call the process's libm
// or become instructions: including <math.h>, which is <cmath> in C++ (20,000 lines), took 340 of
// the ~410 ms a kernel's compile took. So a preamble must not include <math.h> or <cmath> itself.

#define XPJ_MATH1(name)                                                                             \
  inline double name(double x) { return __builtin_##name(x); }                                      \
  inline float name(float x) { return __builtin_##name##f(x); }                                     \
  inline float name##f(float x) { return __builtin_##name##f(x); }                                  \
  template <class I>                                                                                \
  inline typename xpj_math::only_if<xpj_math::integer<I>::value, double>::type name(I x) {          \
    return __builtin_##name(static_cast<double>(x));                                                \
  }
#define XPJ_MATH2(name)                                                                             \
  inline double name(double x, double y) { return __builtin_##name(x, y); }                         \
  inline float name(float x, float y) { return __builtin_##name##f(x, y); }                         \
  inline float name##f(float x, float y) { return __builtin_##name##f(x, y); }                      \
  template <class I, class J>                                                                       \
  inline typename xpj_math::only_if<xpj_math::integer<I>::value && xpj_math::integer<J>::value,     \
                                    double>::type name(I x, J y) {                                  \
    return __builtin_##name(static_cast<double>(x), static_cast<double>(y));                        \
  }
#define XPJ_CLASSIFY(name)                                                                          \
  inline bool name(double x) { return __builtin_##name(x); }                                        \
  inline bool name(float x) { return __builtin_##name(x); }
// xpj-math-lines-begin: one function per line up to xpj-math-lines-end. A host kernel's source
// keeps only the lines of the functions its code names (lib/core/kernel_source.cpp): parsing
// all of them was a fifth of a small kernel's compile.
XPJ_MATH1(acos)
XPJ_MATH1(acosh)
XPJ_MATH1(asin)
XPJ_MATH1(asinh)
XPJ_MATH1(atan)
XPJ_MATH1(atanh)
XPJ_MATH1(cbrt)
XPJ_MATH1(ceil)
XPJ_MATH1(cos)
XPJ_MATH1(cosh)
XPJ_MATH1(erf)
XPJ_MATH1(erfc)
XPJ_MATH1(exp)
XPJ_MATH1(exp2)
XPJ_MATH1(exp10)
XPJ_MATH1(expm1)
XPJ_MATH1(fabs)
XPJ_MATH1(floor)
XPJ_MATH1(lgamma)
XPJ_MATH1(log)
XPJ_MATH1(log10)
XPJ_MATH1(log1p)
XPJ_MATH1(log2)
XPJ_MATH1(logb)
XPJ_MATH1(nearbyint)
XPJ_MATH1(rint)
XPJ_MATH1(round)
XPJ_MATH1(sin)
XPJ_MATH1(sinh)
XPJ_MATH1(sqrt)
XPJ_MATH1(tan)
XPJ_MATH1(tanh)
XPJ_MATH1(tgamma)
XPJ_MATH1(trunc)
XPJ_MATH2(atan2)
XPJ_MATH2(copysign)
XPJ_MATH2(fdim)
XPJ_MATH2(fmax)
XPJ_MATH2(fmin)
XPJ_MATH2(fmod)
XPJ_MATH2(hypot)
XPJ_MATH2(nextafter)
XPJ_MATH2(pow)
XPJ_MATH2(remainder)
XPJ_CLASSIFY(isnan)
XPJ_CLASSIFY(isinf)
XPJ_CLASSIFY(isfinite)
XPJ_CLASSIFY(signbit)
inline double rsqrt(double x) { return 1.0 / __builtin_sqrt(x); }
inline float rsqrt(float x) { return 1.0f / __builtin_sqrtf(x); }
inline float rsqrtf(float x) { return 1.0f / __builtin_sqrtf(x); }
inline double fma(double x, double y, double z) { return __builtin_fma(x, y, z); }
inline float fma(float x, float y, float z) { return __builtin_fmaf(x, y, z); }
inline float fmaf(float x, float y, float z) { return __builtin_fmaf(x, y, z); }
inline double ldexp(double x, int e) { return __builtin_ldexp(x, e); }
inline float ldexp(float x, int e) { return __builtin_ldexpf(x, e); }
inline float ldexpf(float x, int e) { return __builtin_ldexpf(x, e); }
inline double frexp(double x, int* e) { return __builtin_frexp(x, e); }
inline float frexp(float x, int* e) { return __builtin_frexpf(x, e); }
inline float frexpf(float x, int* e) { return __builtin_frexpf(x, e); }
inline double modf(double x, double* i) { return __builtin_modf(x, i); }
inline float modf(float x, float* i) { return __builtin_modff(x, i); }
inline float modff(float x, float* i) { return __builtin_modff(x, i); }
inline int ilogb(double x) { return __builtin_ilogb(x); }
inline int ilogb(float x) { return __builtin_ilogbf(x); }
inline long long llround(double x) { return __builtin_llround(x); }
inline long long llround(float x) { return __builtin_llroundf(x); }
inline int abs(int x) { return x < 0 ? -x : x; }
inline long abs(long x) { return x < 0 ? -x : x; }
inline long long abs(long long x) { return x < 0 ? -x : x; }
inline double abs(double x) { return __builtin_fabs(x); }
inline float abs(float x) { return __builtin_fabsf(x); }
inline long labs(long x) { return x < 0 ? -x : x; }
inline long long llabs(long long x) { return x < 0 ? -x : x; }
// xpj-math-lines-end
#undef XPJ_MATH1
#undef XPJ_MATH2
#undef XPJ_CLASSIFY
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

// Where the loop is, as the body reads its operands: at(x) is the body's element of operand x.
// A contiguous loop's position is its index into every pointer operand.
struct flat_position {
  index_t i;
  template <class T>
  XPJ_DEVICE T& operator()(T* data) const { return data[i]; }
};

// A strided loop's position: its coordinates, C order. An operand of M <= N axes (a reduction's
// output, over the kept axes only) is placed by the first M.
template <int N>
struct coordinates {
  index_t c[N > 0 ? N : 1];
  template <class T, int M>
  XPJ_DEVICE T& operator()(const strided<T, M>& operand) const {
    index_t offset = 0;
    for (int d = 0; d < M; ++d) offset += c[d] * operand.stride[d];
    return operand.data[offset];
  }
};

// Loop index i as coordinates over `extent` (C order), into c[0], ..., c[N - 1].
template <int N>
XPJ_DEVICE void unravel(index_t i, const shape<N>& extent, index_t* c) {
  for (int d = N - 1; d > 0; --d) {
    c[d] = i % extent.extent[d];
    i /= extent.extent[d];
  }
  if (N > 0) c[0] = i;
}

#if defined(__CUDACC__)
// Elementwise loops: body(i, at) for every loop index, a grid-stride loop.
template <class Body>
__device__ __forceinline__ void grid_loop(index_t size, const Body& body) {
  for (index_t i = (index_t)blockIdx.x * blockDim.x + threadIdx.x; i < size; i += (index_t)blockDim.x * gridDim.x) {
    const flat_position at = {i};
    body(i, at);
  }
}

template <int N, class Body>
__device__ __forceinline__ void grid_loop(const shape<N>& loop, const Body& body) {
  for (index_t i = (index_t)blockIdx.x * blockDim.x + threadIdx.x; i < loop.size; i += (index_t)blockDim.x * gridDim.x) {
    coordinates<N> at;
    unravel(i, loop, at.c);
    body(i, at);
  }
}
#else
// Elementwise loops over [begin, end): a contiguous one, and a strided one that walks whole rows
// (the coordinates of the first element, then an odometer) so that offsets along a row are one
// multiply-add.
template <class Body>
inline void flat_loop(index_t begin, index_t end, const Body& body) {
  for (index_t i = begin; i < end; ++i) {
    const flat_position at = {i};
    body(i, at);
  }
}

template <int N, class Body>
inline void row_loop(const shape<N>& loop, index_t begin, index_t end, const Body& body) {
  coordinates<N> at;
  unravel(begin, loop, at.c);
  const index_t last = loop.extent[N - 1];
  for (index_t i = begin; i < end;) {
    const index_t first = at.c[N - 1];
    const index_t count = last - first < end - i ? last - first : end - i;
    for (index_t k = 0; k < count; ++k) {
      // A copy per element: the inner loop stores to no shared state, so it vectorises.
      coordinates<N> here = at;
      here.c[N - 1] = first + k;
      body(i + k, here);
    }
    i += count;
    at.c[N - 1] = first + count;
    if (at.c[N - 1] < last) continue;
    at.c[N - 1] = 0;
    for (int d = N - 2; d >= 0; --d) {
      if (++at.c[d] < loop.extent[d]) break;
      at.c[d] = 0;
    }
  }
}
#endif

#if defined(__CUDACC__) && defined(CUB_VERSION)
// A block's running reduction: `valid` false until its first element, so no identity is needed
// before the end (an identity that is not neutral, as CuPy's users sometimes write, is applied once).
template <class R>
struct partial {
  R value;
  bool valid;
};

template <class R, class Combine>
struct partial_combine {
  Combine combine;
  __device__ partial<R> operator()(const partial<R>& l, const partial<R>& r) const {
    if (!l.valid) return r;
    if (!r.valid) return l;
    partial<R> s;
    s.value = combine(l.value, r.value);
    s.valid = true;
    return s;
  }
};

// A reduction on the GPU: one block per output (grid-stride over outputs), its threads over the
// reduced positions, then cub::BlockReduce. map(i, r, at) is reduced position r of output i;
// store(i, value, at) writes output i (at: its coordinates over the kept axes).
template <class R, int Block, int K, int Rd, class Map, class Combine, class Store>
__device__ __forceinline__ void block_reduce(const shape<K>& kept, const shape<Rd>& reduced, const R& identity,
                                             const Map& map, const Combine& combine, const Store& store) {
  typedef cub::BlockReduce<partial<R>, Block> reducer;
  __shared__ typename reducer::TempStorage temp;
  const partial_combine<R, Combine> join = {combine};
  for (index_t i = blockIdx.x; i < kept.size; i += gridDim.x) {
    coordinates<K + Rd> at;
    unravel(i, kept, at.c);
    partial<R> sum;
    sum.valid = false;
    for (index_t r = threadIdx.x; r < reduced.size; r += Block) {
      unravel(r, reduced, at.c + K);
      partial<R> element;
      element.value = map(i, r, at);
      element.valid = true;
      sum = join(sum, element);
    }
    const partial<R> total = reducer(temp).Reduce(sum, join);
    if (threadIdx.x == 0) store(i, total.valid ? total.value : identity, at);
    __syncthreads();
  }
}
#endif

#if !defined(__CUDACC__)
// combine over element(begin) ... element(end - 1), begin < end, in pairwise order: blocks of 128
// in 8 interleaved lanes, blocks merged as a binary counter. The error grows with log(n), as NumPy's
// sums, and the lanes leave the compiler independent chains to vectorise. Each block's elements are
// mapped into a buffer first: one inlined copy of element() in a plain loop, and lanes that read
// memory with stride 1, compile in half the time of lanes that call element() themselves.
template <class R, class Element, class Combine>
inline R reduce_range(const Element& element, const Combine& combine, index_t begin, index_t end) {
  R stack[64];
  int depth = 0;
  index_t blocks = 0;
  R values[128];
  for (index_t b = begin; b < end; b += 128) {
    const index_t n = end - b < 128 ? end - b : 128;
    if (n == 128) {
      for (index_t t = 0; t < 128; ++t) values[t] = element(b + t);
    } else {
      for (index_t t = 0; t < n; ++t) values[t] = element(b + t);
    }
    R block;
    if (n >= 8) {
      R lane[8];
      for (int k = 0; k < 8; ++k) lane[k] = values[k];
      index_t j = 8;
      for (; j + 8 <= n; j += 8)
        for (int k = 0; k < 8; ++k) lane[k] = combine(lane[k], values[j + k]);
      for (; j < n; ++j) lane[0] = combine(lane[0], values[j]);
      block = combine(combine(combine(lane[0], lane[1]), combine(lane[2], lane[3])),
                      combine(combine(lane[4], lane[5]), combine(lane[6], lane[7])));
    } else {
      block = values[0];
      for (index_t j = 1; j < n; ++j) block = combine(block, values[j]);
    }
    stack[depth++] = block;
    for (index_t m = ++blocks; (m & 1) == 0; m >>= 1) {
      stack[depth - 2] = combine(stack[depth - 2], stack[depth - 1]);
      --depth;
    }
  }
  R total = stack[depth - 1];
  for (int k = depth - 2; k >= 0; --k) total = combine(stack[k], total);
  return total;
}

// A reduction on the host over outputs [out_begin, out_end); with `partial` set, instead reduced
// positions [r_begin, r_end) of output out_begin into *partial (finish_partials combines them).
template <class R, int K, int Rd, class Map, class Combine, class Store>
inline void reduce_rows(const shape<K>& kept, const shape<Rd>& reduced, const R& identity, index_t out_begin,
                        index_t out_end, index_t r_begin, index_t r_end, R* partial, const Map& map,
                        const Combine& combine, const Store& store) {
  const index_t first = partial ? r_begin : 0, last = partial ? r_end : reduced.size;
  for (index_t i = out_begin; i < out_end; ++i) {
    coordinates<K + Rd> at;
    unravel(i, kept, at.c);
    const auto element = [&](index_t r) -> R {
      coordinates<K + Rd> here = at;  // a copy: reduce_range's lanes store to no shared state
      unravel(r, reduced, here.c + K);
      return map(i, r, here);
    };
    const R value = first < last ? reduce_range<R>(element, combine, first, last) : identity;
    if (partial) {
      *partial = value;
      return;
    }
    store(i, value, at);
  }
}

template <class R, int K, class Combine, class Store>
inline void finish_partials(const shape<K>& kept, index_t i, const R* partials, int count, const Combine& combine,
                            const Store& store) {
  coordinates<K> at;
  unravel(i, kept, at.c);
  R value = partials[0];
  for (int k = 1; k < count; ++k) value = combine(value, partials[k]);
  store(i, value, at);
}
#endif

}  // namespace xpj
#endif  // XP_KERNELS_JIT_PRELUDE_CUH
