#include "xp/random.hpp"

#include <cmath>
#include <iterator>
#include <limits>
#include <mutex>

#include "api/array/array_factory.hpp"
#include "api/array/device_services.hpp"
#include "xp/kernels/random_dispatch.hpp"
#include "xp/memory_pool.hpp"
#include "xp/profile.hpp"

namespace xp::random {

using xp::detail::RandomCall;

struct Generator::State {
  std::mutex mutex;
  std::uint64_t key;
  std::uint64_t next_block = 0;
  std::uint64_t spawned = 0;
};

namespace {

// SplitMix64's finaliser: spawned keys are hashes of (key, child number), so children of different
// generators and of successive spawns do not meet.
std::uint64_t mix(std::uint64_t x) {
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

// `call` keyed by the generator and placed at its next `blocks` blocks, which it then owns.
template <class State>
RandomCall reserve_blocks(State& state, RandomCall call, std::int64_t blocks) {
  const std::lock_guard lock(state.mutex);
  call.key = state.key;
  call.first_block = state.next_block;
  state.next_block += static_cast<std::uint64_t>(blocks);
  return call;
}

const char* name_of(RandomCall::Distribution distribution) {
  static constexpr const char* names[] = {"uniform",    "normal",   "lognormal",  "exponential", "laplace",
                                          "logistic",   "gumbel",   "weibull",    "gamma",       "chisquare",
                                          "standard_t", "beta",     "integers",   "bernoulli",   "geometric",
                                          "poisson",    "binomial", "multinomial"};
  static_assert(std::size(names) == RandomCall::binomial_of_counts + 1);
  return names[distribution];
}

// The profiler's range of a draw: "random." and the distribution.
const char* profile_name_of(RandomCall::Distribution distribution) {
  static constexpr const char* names[] = {
      "random.uniform",    "random.normal",   "random.lognormal",  "random.exponential", "random.laplace",
      "random.logistic",   "random.gumbel",   "random.weibull",    "random.gamma",       "random.chisquare",
      "random.standard_t", "random.beta",     "random.integers",   "random.bernoulli",   "random.geometric",
      "random.poisson",    "random.binomial", "random.multinomial"};
  static_assert(std::size(names) == RandomCall::binomial_of_counts + 1);
  return names[distribution];
}

// NumPy's argument errors, with the value.
void check_parameters(const RandomCall& call) {
  using R = RandomCall;
  const char* name = name_of(call.distribution);
  const double a = call.a, b = call.b;
  switch (call.distribution) {
    case R::uniform:
      XP_CHECK(std::isfinite(b - a), ValueError, name, ": high - low range exceeds valid bounds (low ", a, ", high ", b,
               ")");
      XP_CHECK(a <= b, ValueError, name, ": high - low < 0 (low ", a, ", high ", b, ")");
      return;
    case R::normal:
    case R::laplace:
    case R::logistic:
    case R::gumbel: XP_CHECK(b >= 0, ValueError, name, ": scale < 0 (scale = ", b, ")"); return;
    case R::lognormal: XP_CHECK(b >= 0, ValueError, name, ": sigma < 0 (sigma = ", b, ")"); return;
    case R::exponential: XP_CHECK(a >= 0, ValueError, name, ": scale < 0 (scale = ", a, ")"); return;
    case R::weibull: XP_CHECK(a >= 0, ValueError, name, ": a < 0 (a = ", a, ")"); return;
    case R::gamma:
      XP_CHECK(a >= 0, ValueError, name, ": shape < 0 (shape = ", a, ")");
      XP_CHECK(b >= 0, ValueError, name, ": scale < 0 (scale = ", b, ")");
      return;
    case R::chisquare:
    case R::standard_t: XP_CHECK(a > 0, ValueError, name, ": df <= 0 (df = ", a, ")"); return;
    case R::beta:
      XP_CHECK(a > 0, ValueError, name, ": a <= 0 (a = ", a, ")");
      XP_CHECK(b > 0, ValueError, name, ": b <= 0 (b = ", b, ")");
      return;
    case R::poisson:
      XP_CHECK(a >= 0, ValueError, name, ": lam < 0 or lam is NaN (lam = ", a, ")");
      XP_CHECK(a <= 9.223372006484771e18, ValueError, name, ": lam value too large (lam = ", a, ")");
      return;
    case R::bernoulli:
    case R::binomial:
    case R::binomial_of_counts:
      XP_CHECK(call.trials >= 0, ValueError, name, ": n < 0 (n = ", call.trials, ")");
      XP_CHECK(a >= 0 && a <= 1, ValueError, name, ": p < 0, p > 1 or p is NaN (p = ", a, ")");
      return;
    case R::geometric:
      XP_CHECK(a > 0 && a <= 1, ValueError, name, ": p <= 0, p > 1 or p contains NaNs (p = ", a, ")");
      return;
    case R::integers: return;
  }
}

// The lowest and highest values of an integer dtype.
struct IntegerLimits {
  long double lowest, highest;  // exact for every 64-bit integer
};
IntegerLimits integer_limits(xp::dtype type) {
  const auto of = []<class T>(T) {
    return IntegerLimits{std::numeric_limits<T>::lowest(), std::numeric_limits<T>::max()};
  };
  switch (type) {
    case xp::dtype::int8: return of(std::int8_t{});
    case xp::dtype::int16: return of(std::int16_t{});
    case xp::dtype::int32: return of(std::int32_t{});
    case xp::dtype::int64: return of(std::int64_t{});
    case xp::dtype::uint8: return of(std::uint8_t{});
    case xp::dtype::uint16: return of(std::uint16_t{});
    case xp::dtype::uint32: return of(std::uint32_t{});
    default: return of(std::uint64_t{});
  }
}

// Where a dtype's samples are drawn: 2-byte floats in float32, then rounded.
xp::dtype drawn_type(xp::dtype type) { return is_two_byte_float(type) ? xp::dtype::float32 : type; }

}  // namespace

Generator::Generator(std::uint64_t seed) : state_(std::make_unique<State>()) { state_->key = seed; }
Generator::Generator(Generator&&) noexcept = default;
Generator& Generator::operator=(Generator&&) noexcept = default;
Generator::~Generator() = default;

std::vector<Generator> Generator::spawn(int n) {
  XP_CHECK(n >= 0, ValueError, "spawn: the number of generators must be non-negative, not ", n);
  std::vector<Generator> children;
  children.reserve(static_cast<std::size_t>(n));
  const std::lock_guard lock(state_->mutex);
  for (int k = 0; k < n; ++k) children.emplace_back(mix(mix(state_->key) ^ ++state_->spawned));
  return children;
}

std::uint64_t Generator::key() const noexcept { return state_->key; }

std::uint64_t Generator::position() const noexcept {
  const std::lock_guard lock(state_->mutex);
  return state_->next_block;
}

xp::detail::ArrayCore Generator::draw(RandomCall call, const Shape& shape, xp::dtype type, Device device) {
  check_parameters(call);
  const xp::dtype drawn = drawn_type(type);
  if (drawn != type) return xp::detail::astype(draw(call, shape, drawn, device), type);
  const profile_range profiled(profile_name_of(call.distribution));
  const xp::detail::Exec exec = xp::detail::exec_on(device);
  xp::detail::ArrayCore out = xp::detail::new_array(shape, type, exec);
  std::int64_t blocks = 0;
  kernels::with_random_sampler(
      call, type, nullptr, [&]<class Sampler>(const Sampler&) { blocks = kernels::blocks_for<Sampler>(out.size()); });
  xp::detail::kernels_for(device).random(out.raw_data(), out.size(), type, reserve_blocks(*state_, call, blocks), exec);
  return out;
}

ndarray<std::int64_t> Generator::permutation(std::int64_t n, Device device) {
  XP_CHECK(n >= 0, ValueError, "permutation: negative dimensions are not allowed (", n, ")");
  const profile_range profiled("random.permutation");
  const xp::detail::Exec exec = xp::detail::exec_on(device);
  xp::detail::ArrayCore out = xp::detail::new_array({n}, dtype::int64, exec);
  // The keys: n integers over uint64's full range, two to a block.
  const RandomCall keys =
      reserve_blocks(*state_, {.distribution = RandomCall::integers, .low = 0, .range = 0}, (n + 1) / 2);
  xp::detail::kernels_for(device).random_permutation(static_cast<std::int64_t*>(out.raw_data()), n, keys,
                                                     xp::detail::scratch_pool(exec), exec);
  return ndarray<std::int64_t>(out);
}

xp::detail::ArrayCore Generator::integers_core(std::int64_t low, std::int64_t high, bool endpoint, xp::dtype type,
                                               const Shape& shape, Device device) {
  // NumPy checks no bounds for an empty shape.
  if (numel(shape) == 0) return xp::detail::new_array(shape, type, xp::detail::exec_on(device));
  XP_CHECK(endpoint ? low <= high : low < high, ValueError, "integers: low >= high (low ", low, ", high ", high,
           endpoint ? ", endpoint)" : ")");
  const auto range = static_cast<std::uint64_t>(high) - static_cast<std::uint64_t>(low) + (endpoint ? 1 : 0);
  const auto [lowest, highest] = integer_limits(type);
  XP_CHECK(low >= lowest, ValueError, "integers: low is out of bounds for ", dtype_name(type), " (low ", low, ")");
  XP_CHECK(static_cast<long double>(high) - (endpoint ? 0 : 1) <= highest, ValueError,
           "integers: high is out of bounds for ", dtype_name(type), " (high ", high, ")");
  return draw({.distribution = RandomCall::integers, .low = static_cast<std::uint64_t>(low), .range = range}, shape,
              type, device);
}

xp::detail::ArrayCore Generator::discrete(RandomCall::Distribution distribution, double a, std::int64_t trials,
                                          xp::dtype type, const Shape& shape, Device device) {
  const xp::dtype drawn = distribution == RandomCall::bernoulli ? xp::dtype::bool_ : type;
  xp::detail::ArrayCore out = draw({.distribution = distribution, .a = a, .trials = trials}, shape, drawn, device);
  return drawn == type ? out : xp::detail::astype(out, type);
}

Generator default_rng(std::uint64_t seed) { return Generator(seed); }

Generator& default_generator() {
  static Generator generator;
  return generator;
}

void seed(std::uint64_t value) {
  Generator::State& state = *default_generator().state_;
  const std::lock_guard lock(state.mutex);
  state.key = value;
  state.next_block = 0;
  state.spawned = 0;
}

}  // namespace xp::random
