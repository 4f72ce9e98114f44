#pragma once
// Which arrays xp::dist sums together: one collective per bucket.
#include <cstddef>
#include <span>
#include <vector>

#include "xp/device.hpp"
#include "xp/dtype.hpp"

namespace xp::dist::detail {

struct BucketMember {
  Device device;
  xp::dtype type;
  std::size_t bytes;
};

// Indices of the arrays, grouped by (device, dtype) in order of first appearance, each group cut in its
// own order into buckets of at most `capacity` bytes (an array larger than that is a bucket alone).
// Empty arrays are in no bucket.
std::vector<std::vector<std::size_t>> plan_buckets(std::span<const BucketMember> arrays, std::size_t capacity);

}  // namespace xp::dist::detail
