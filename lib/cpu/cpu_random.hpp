#pragma once
// Random samples on host devices (DeviceKernels::random), on the CPU's threads.
#include <cstdint>

#include "xp/detail/exec.hpp"
#include "xp/detail/random_call.hpp"
#include "xp/dtype.hpp"
#include "xp/memory_pool.hpp"

namespace xp::detail {

void cpu_random(void* out, std::int64_t size, xp::dtype type, const RandomCall& call, const Exec& exec);
// DeviceKernels::random_permutation (cpu_random_permutation.cpp).
void cpu_random_permutation(std::int64_t* out, std::int64_t n, const RandomCall& keys, MemoryPool& scratch,
                            const Exec& exec);

}  // namespace xp::detail
