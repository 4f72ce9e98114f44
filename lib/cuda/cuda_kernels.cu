#include "cuda/cuda_kernels.hpp"

#include <algorithm>
#include <cstring>
#include <type_traits>

#include "core/bit_dispatch.hpp"
#include "core/layout.hpp"
#include "cuda/cuda_check.hpp"
#include "cuda/cuda_runtime_info.hpp"
#include "xp/kernels/generators.hpp"
#include "xp/kernels/make_indexer.hpp"
#include "xp/kernels/random_dispatch.hpp"
#include "xp/kernels/strided_kernels.cuh"

namespace xp::detail {

namespace {

constexpr int kThreads = 256;

// Enough blocks to fill the GPU a few times over; the grid-stride loops cover the rest.
unsigned blocks_for(std::int64_t n, int device_id) {
  const std::int64_t wanted = (n + kThreads - 1) / kThreads;
  return static_cast<unsigned>(std::min<std::int64_t>(wanted, cuda_multiprocessor_count(device_id) * 32));
}

template <class T, class Generator>
void launch_generate(const StridedView& dst, Generator gen, void* stream, int device_id) {
  Shape shape = dst.shape;
  Strides strides = dst.strides;
  const std::int64_t n = numel(shape);
  if (n == 0) return;
  Strides* const operands[] = {&strides};
  squash_axes(shape, operands);
  kernels::generate_kernel<<<blocks_for(n, device_id), kThreads, 0, cudaStream_t(stream)>>>(
      static_cast<T*>(dst.data), kernels::make_indexer(shape, strides), n, gen);
  XP_CUDA_CHECK(cudaGetLastError(), device_id);
}

}  // namespace

void launch_copy_cast(const StridedView& src, const StridedView& dst, void* stream, int device_id) {
  Shape shape = src.shape;
  Strides in_strides = src.strides, out_strides = dst.strides;
  const std::int64_t n = numel(shape);
  if (n == 0) return;
  Strides* const operands[] = {&in_strides, &out_strides};
  squash_axes(shape, operands);
  const kernels::StridedIndexer in_index = kernels::make_indexer(shape, in_strides);
  const kernels::StridedIndexer out_index = kernels::make_indexer(shape, out_strides);
  const unsigned blocks = blocks_for(n, device_id);
  const auto launch = [&](auto* in, auto* out) {
    kernels::copy_cast_kernel<<<blocks, kThreads, 0, cudaStream_t(stream)>>>(in, in_index, out,
                                                                             out_index, n);
  };
  if (src.type == dst.type) {
    visit_bits(itemsize(src.type), [&](auto bits) {
      using T = typename decltype(bits)::type;
      launch(static_cast<const T*>(src.data), static_cast<T*>(dst.data));
    });
  } else {
    visit_dtype(src.type, [&](auto source) {
      using S = typename decltype(source)::type;
      visit_dtype(dst.type, [&](auto target) {
        using D = typename decltype(target)::type;
        if constexpr (!std::is_same_v<S, D>)  // same types went through visit_bits above
          launch(static_cast<const S*>(src.data), static_cast<D*>(dst.data));
      });
    });
  }
  XP_CUDA_CHECK(cudaGetLastError(), device_id);
}

void launch_fill(const StridedView& dst, const void* value, void* stream, int device_id) {
  visit_bits(itemsize(dst.type), [&](auto bits) {
    using T = typename decltype(bits)::type;
    T pattern;
    std::memcpy(&pattern, value, sizeof(T));
    launch_generate<T>(dst, kernels::Fill<T>{pattern}, stream, device_id);
  });
}

void launch_iota(const StridedView& dst, const IotaRange& range, void* stream, int device_id) {
  visit_dtype(dst.type, [&](auto type) {
    using T = typename decltype(type)::type;
    if (range.integral)
      launch_generate<T>(dst, kernels::Iota<T, std::int64_t>{range.int_start, range.int_step},
                         stream, device_id);
    else
      launch_generate<T>(dst, kernels::Iota<T, double>{range.float_start, range.float_step},
                         stream, device_id);
  });
}

void launch_random(const StridedView& dst, const RandomCall& call, void* stream, int device_id) {
  kernels::with_random_distribution(dst.type, call, [&](auto distribution) {
    using T = typename decltype(distribution)::result_type;
    launch_generate<T>(dst, distribution, stream, device_id);
  });
}

}  // namespace xp::detail
