#pragma once
// A request for random numbers as a backend receives it: `size` samples of one distribution into a
// contiguous array, sample i from the generator keyed `key` starting at block `first_block` of its
// stream (kernels/xp/kernels/philox.hpp says which words a sample reads).
#include <cstdint>

#include "xp/export.hpp"

namespace xp::detail {

struct XP_API RandomCall {
  enum Distribution : std::uint8_t {
    uniform,  // a = low, b = high
    normal,  // a = mean, b = standard deviation
    lognormal,  // of the underlying normal: a = mean, b = sigma
    exponential,  // a = scale
    laplace,  // a = loc, b = scale (logistic and gumbel too)
    logistic,
    gumbel,
    weibull,  // a = shape
    gamma,  // a = shape, b = scale
    chisquare,  // a = degrees of freedom (standard_t too)
    standard_t,
    beta,  // a, b
    integers,  // low + [0, range): low's two's complement, range 0 for 2^64
    bernoulli,  // a = p
    geometric,  // a = p
    poisson,  // a = lambda
    binomial,  // trials, a = p
    binomial_of_counts,  // sample i: counts[i] trials (int64 on the device), a = p
  } distribution;
  std::uint64_t key = 0;
  std::uint64_t first_block = 0;
  double a = 0, b = 0;
  std::int64_t trials = 0;
  std::uint64_t low = 0, range = 0;
  const void* counts = nullptr;
};

}  // namespace xp::detail
