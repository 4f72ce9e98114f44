#pragma once
/// \file
/// The largest number of dimensions an array may have. Shapes and strides are stored inline with this
/// capacity, which keeps them cheap to copy and lets kernels receive them by value. No includes, so
/// that kernel sources compiled by NVRTC can use it too.
namespace xp {
inline constexpr int kMaxNdim = 16;  ///< the most axes an array may have
}  // namespace xp
