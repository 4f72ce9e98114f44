#pragma once
// The way the libraries beside libxparray (xp::dist's collectives, xp::fft's transforms) run a vendor
// call on arrays: on the device's current stream, after the arrays' pending work on other streams.
#include <span>

#include "xp/detail/exec.hpp"
#include "xp/export.hpp"
#include "xp/ndarray.hpp"

namespace xp::detail {

// The stream a call over `arrays` runs on (`device`'s current one), with their pending work on other
// streams ordered before it and their later use ordered after it (the arrays' access gate).
XP_API Exec ordered_exec(Device device, std::span<const ArrayCore* const> arrays);

}  // namespace xp::detail
