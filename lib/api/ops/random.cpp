#include "xp/random.hpp"

#include <mutex>

#include "api/array/array_factory.hpp"
#include "api/array/device_services.hpp"
#include "xp/profile.hpp"

namespace xp::random {

namespace {
// The generator's state: the seed, and the counter the next draw starts at.
struct State {
  std::mutex mutex;
  std::uint64_t seed = 0;
  std::uint64_t next = 0;
};
State& state() {
  static State s;
  return s;
}
}  // namespace

void seed(std::uint64_t value) {
  State& s = state();
  const std::lock_guard lock(s.mutex);
  s.seed = value;
  s.next = 0;
}

namespace detail {

xp::detail::ArrayCore draw(xp::detail::RandomCall::Distribution distribution, double a, double b, const Shape& shape,
                           xp::dtype type, Device device) {
  if (is_two_byte_float(type))  // drawn in float32 (the same stream of numbers), then rounded once
    return xp::detail::astype(draw(distribution, a, b, shape, xp::dtype::float32, device), type);
  const profile_range profiled(distribution == xp::detail::RandomCall::uniform ? "random.uniform" : "random.normal");
  XP_CHECK(distribution != xp::detail::RandomCall::uniform || a <= b, ValueError, "uniform: low (", a,
           ") must not exceed high (", b, ")");
  XP_CHECK(distribution != xp::detail::RandomCall::normal || b >= 0, ValueError,
           "normal: the standard deviation must be non-negative, not ", b);
  const xp::detail::Exec exec = xp::detail::exec_on(device);
  xp::detail::ArrayCore out = xp::detail::new_array(shape, type, exec);
  xp::detail::RandomCall call{distribution, 0, 0, a, b};
  {
    State& s = state();
    const std::lock_guard lock(s.mutex);
    call.seed = s.seed;
    call.offset = s.next;
    s.next += out.size();
  }
  xp::detail::kernels_for(device).random(xp::detail::view_of(out, exec), call, exec);
  return out;
}

}  // namespace detail
}  // namespace xp::random
