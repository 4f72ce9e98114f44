#pragma once
/// \file
/// Random arrays (numpy.random.Generator, cupy.random, MXNet's nd.random) from a counter-based
/// generator, Philox4x32-10: a sample is a pure function of the generator's key and of how many blocks
/// it had drawn before, computed by the same code on every device, so every distribution gives the
/// same bits on cpu and gpu devices and for any number of threads. Dtypes are template arguments with
/// NumPy's defaults (float64, int64); float16 and bfloat16 are float32 samples rounded once.
#include <concepts>
#include <cstdint>
#include <memory>
#include <vector>

#include "xp/detail/random_call.hpp"
#include "xp/device.hpp"
#include "xp/export.hpp"
#include "xp/ndarray.hpp"

namespace xp::random {

/// The element types of real samples: float16, bfloat16, float, double.
template <class T>
concept RealSample = std::floating_point<T> || is_two_byte_float(dtype_of<T>);

/// The element types of integers(): every integer dtype.
template <class T>
concept IntegerSample = std::integral<T> && !std::same_as<T, bool>;

/// Restarts the default generator (default_generator()) as Generator(value) would start (thread-safe).
XP_API void seed(std::uint64_t value);

/// A stream of random numbers (numpy.random.Generator over Philox). Draws from one Generator are
/// numbered in the order they happen (thread-safe); independent streams come from other seeds or from
/// spawn(). Movable, not copyable: a copy would repeat the same numbers.
class XP_API Generator {
 public:
  /// The stream keyed by `seed`, from its start.
  explicit Generator(std::uint64_t seed = 0);
  Generator(Generator&&) noexcept;  ///< takes the other's stream (the other is left without one)
  Generator& operator=(Generator&&) noexcept;  ///< takes the other's stream
  ~Generator();

  /// `n` new generators whose streams are independent of this one's and of each other's (NumPy's
  /// spawn): for per-device or per-thread streams. Each call makes new ones.
  std::vector<Generator> spawn(int n);
  /// The generator's key (its seed, or a spawned key).
  std::uint64_t key() const noexcept;
  /// The number of Philox blocks it has drawn (where the next draw starts).
  std::uint64_t position() const noexcept;

  /// Uniform in [0, 1).
  template <RealSample T = double>
  ndarray<T> random(const Shape& shape = {}, Device device = current_device()) {
    return real<T>(xp::detail::RandomCall::uniform, 0, 1, shape, device);
  }
  /// Uniform in [low, high).
  template <RealSample T = double>
  ndarray<T> uniform(double low = 0, double high = 1, const Shape& shape = {}, Device device = current_device()) {
    return real<T>(xp::detail::RandomCall::uniform, low, high, shape, device);
  }
  /// Normal with mean `loc` and standard deviation `scale` (the ziggurat).
  template <RealSample T = double>
  ndarray<T> normal(double loc = 0, double scale = 1, const Shape& shape = {}, Device device = current_device()) {
    return real<T>(xp::detail::RandomCall::normal, loc, scale, shape, device);
  }
  /// Normal with mean 0 and standard deviation 1.
  template <RealSample T = double>
  ndarray<T> standard_normal(const Shape& shape = {}, Device device = current_device()) {
    return normal<T>(0, 1, shape, device);
  }
  /// exp of a normal number with the given mean and sigma.
  template <RealSample T = double>
  ndarray<T> lognormal(double mean = 0, double sigma = 1, const Shape& shape = {}, Device device = current_device()) {
    return real<T>(xp::detail::RandomCall::lognormal, mean, sigma, shape, device);
  }
  /// Exponential with the given scale (1 / rate).
  template <RealSample T = double>
  ndarray<T> exponential(double scale = 1, const Shape& shape = {}, Device device = current_device()) {
    return real<T>(xp::detail::RandomCall::exponential, scale, 0, shape, device);
  }
  /// Exponential with scale 1.
  template <RealSample T = double>
  ndarray<T> standard_exponential(const Shape& shape = {}, Device device = current_device()) {
    return exponential<T>(1, shape, device);
  }
  /// Laplace (double exponential) with the given location and scale.
  template <RealSample T = double>
  ndarray<T> laplace(double loc = 0, double scale = 1, const Shape& shape = {}, Device device = current_device()) {
    return real<T>(xp::detail::RandomCall::laplace, loc, scale, shape, device);
  }
  /// Logistic with the given location and scale.
  template <RealSample T = double>
  ndarray<T> logistic(double loc = 0, double scale = 1, const Shape& shape = {}, Device device = current_device()) {
    return real<T>(xp::detail::RandomCall::logistic, loc, scale, shape, device);
  }
  /// Gumbel (the extreme-value type I) with the given location and scale.
  template <RealSample T = double>
  ndarray<T> gumbel(double loc = 0, double scale = 1, const Shape& shape = {}, Device device = current_device()) {
    return real<T>(xp::detail::RandomCall::gumbel, loc, scale, shape, device);
  }
  /// (-log U)^(1/a).
  template <RealSample T = double>
  ndarray<T> weibull(double a, const Shape& shape = {}, Device device = current_device()) {
    return real<T>(xp::detail::RandomCall::weibull, a, 0, shape, device);
  }
  /// Gamma with shape k (`shape_k`, NumPy's `shape`) and `scale`.
  template <RealSample T = double>
  ndarray<T> gamma(double shape_k, double scale = 1, const Shape& shape = {}, Device device = current_device()) {
    return real<T>(xp::detail::RandomCall::gamma, shape_k, scale, shape, device);
  }
  /// Gamma with shape k and scale 1.
  template <RealSample T = double>
  ndarray<T> standard_gamma(double shape_k, const Shape& shape = {}, Device device = current_device()) {
    return gamma<T>(shape_k, 1, shape, device);
  }
  /// Beta with the shapes a and b.
  template <RealSample T = double>
  ndarray<T> beta(double a, double b, const Shape& shape = {}, Device device = current_device()) {
    return real<T>(xp::detail::RandomCall::beta, a, b, shape, device);
  }
  /// Chi-square with `df` degrees of freedom.
  template <RealSample T = double>
  ndarray<T> chisquare(double df, const Shape& shape = {}, Device device = current_device()) {
    return real<T>(xp::detail::RandomCall::chisquare, df, 0, shape, device);
  }
  /// Student's t with `df` degrees of freedom.
  template <RealSample T = double>
  ndarray<T> standard_t(double df, const Shape& shape = {}, Device device = current_device()) {
    return real<T>(xp::detail::RandomCall::standard_t, df, 0, shape, device);
  }

  /// Integers in [low, high), or [low, high] with `endpoint`, of any integer dtype.
  template <IntegerSample T = std::int64_t>
  ndarray<T> integers(std::int64_t low, std::int64_t high, const Shape& shape = {}, bool endpoint = false,
                      Device device = current_device()) {
    return ndarray<T>(integers_core(low, high, endpoint, dtype_of<T>, shape, device));
  }
  /// True (1) with probability p: bool by default, or any dtype of 0 and 1.
  template <class T = bool>
  ndarray<T> bernoulli(double p, const Shape& shape = {}, Device device = current_device()) {
    return ndarray<T>(discrete(xp::detail::RandomCall::bernoulli, p, 0, dtype_of<T>, shape, device));
  }
  /// The number of trials to the first success, from 1.
  ndarray<std::int64_t> geometric(double p, const Shape& shape = {}, Device device = current_device()) {
    return ndarray<std::int64_t>(discrete(xp::detail::RandomCall::geometric, p, 0, dtype::int64, shape, device));
  }
  /// Poisson with mean `lam`.
  ndarray<std::int64_t> poisson(double lam = 1, const Shape& shape = {}, Device device = current_device()) {
    return ndarray<std::int64_t>(discrete(xp::detail::RandomCall::poisson, lam, 0, dtype::int64, shape, device));
  }
  /// The successes in n trials of probability p.
  ndarray<std::int64_t> binomial(std::int64_t n, double p, const Shape& shape = {}, Device device = current_device()) {
    return ndarray<std::int64_t>(discrete(xp::detail::RandomCall::binomial, p, n, dtype::int64, shape, device));
  }

  /// A random ordering of 0, ..., n - 1: the stable order of n random 64-bit keys (ties keep their
  /// positions, about once in 2^64 / n^2 draws), the same on every device.
  ndarray<std::int64_t> permutation(std::int64_t n, Device device = current_device());
  /// A copy of `a` with its entries along `axis` in a random order.
  template <class T>
  ndarray<T> permutation(const ndarray<T>& a, int axis = 0) {
    return ndarray<T>(permuted(a, axis));
  }
  /// Puts the entries of `a` along `axis` in a random order, in place.
  template <class T>
  void shuffle(const ndarray<T>& a, int axis = 0) {
    shuffle_in_place(a, axis);
  }
  /// Samples of 0, ..., n - 1 of shape `size`: with replacement, uniform or with probabilities `p` (by
  /// inverting their cumulative sum, summed on the host); without, the first of a permutation, or with
  /// `p` the smallest of exponential keys over p (Efraimidis and Spirakis: sequential sampling
  /// without replacement).
  ndarray<std::int64_t> choice(std::int64_t n, const Shape& size = {}, bool replace = true,
                               const std::vector<double>& p = {}, Device device = current_device());
  /// Entries of `a` along its first axis, chosen as choice(a.shape()[0], ...) chooses positions.
  template <class T>
  ndarray<T> choice(const ndarray<T>& a, const Shape& size = {}, bool replace = true,
                    const std::vector<double>& p = {}) {
    return ndarray<T>(chosen(a, size, replace, p));
  }
  /// Counts of n trials over len(pvals) outcomes, shape size + (len(pvals),): a binomial number per
  /// outcome of the trials the outcomes before it left (NumPy's method); the last outcome takes the rest.
  ndarray<std::int64_t> multinomial(std::int64_t n, const std::vector<double>& pvals, const Shape& size = {},
                                    Device device = current_device());
  /// Points of the simplex, shape size + (len(alpha),): normalised gamma numbers, or while every alpha is
  /// below 0.1 beta numbers breaking a stick (NumPy's methods), summed in order so every device agrees.
  template <RealSample T = double>
  ndarray<T> dirichlet(const std::vector<double>& alpha, const Shape& size = {}, Device device = current_device()) {
    return ndarray<T>(xp::detail::astype(dirichlet_core(alpha, size, device), dtype_of<T>));
  }

  /// \cond DETAIL
  // `call`'s distribution and parameters drawn into a new array (the key and position are this
  // generator's; the parameters are checked as NumPy checks them).
  xp::detail::ArrayCore draw(xp::detail::RandomCall call, const Shape& shape, dtype type, Device device);
  /// \endcond

 private:
  template <class T>
  ndarray<T> real(xp::detail::RandomCall::Distribution distribution, double a, double b, const Shape& shape,
                  Device device) {
    return ndarray<T>(draw({.distribution = distribution, .a = a, .b = b}, shape, dtype_of<T>, device));
  }
  xp::detail::ArrayCore integers_core(std::int64_t low, std::int64_t high, bool endpoint, dtype type,
                                      const Shape& shape, Device device);
  xp::detail::ArrayCore discrete(xp::detail::RandomCall::Distribution distribution, double a, std::int64_t trials,
                                 dtype type, const Shape& shape, Device device);
  xp::detail::ArrayCore permuted(const xp::detail::ArrayCore& a, int axis);
  void shuffle_in_place(const xp::detail::ArrayCore& a, int axis);
  xp::detail::ArrayCore chosen(const xp::detail::ArrayCore& a, const Shape& size, bool replace,
                               const std::vector<double>& p);
  xp::detail::ArrayCore dirichlet_core(const std::vector<double>& alpha, const Shape& size, Device device);

  friend void seed(std::uint64_t value);
  struct State;
  std::unique_ptr<State> state_;
};

/// A Generator keyed by `seed` (numpy.random.default_rng).
XP_API Generator default_rng(std::uint64_t seed = 0);

/// The generator the functions below draw from; its seed is 0 until seed() is called.
XP_API Generator& default_generator();

// The functions of NumPy's np.random namespace: the default generator's methods of the same names.
// clang-format off
/// Generator::random of the default generator.
template <RealSample T = double>
ndarray<T> random(const Shape& shape = {}, Device device = current_device()) { return default_generator().random<T>(shape, device); }
/// Generator::uniform of the default generator.
template <RealSample T = double>
ndarray<T> uniform(double low = 0, double high = 1, const Shape& shape = {}, Device device = current_device()) { return default_generator().uniform<T>(low, high, shape, device); }
/// Generator::normal of the default generator.
template <RealSample T = double>
ndarray<T> normal(double loc = 0, double scale = 1, const Shape& shape = {}, Device device = current_device()) { return default_generator().normal<T>(loc, scale, shape, device); }
/// Generator::standard_normal of the default generator.
template <RealSample T = double>
ndarray<T> standard_normal(const Shape& shape = {}, Device device = current_device()) { return default_generator().standard_normal<T>(shape, device); }
/// Generator::lognormal of the default generator.
template <RealSample T = double>
ndarray<T> lognormal(double mean = 0, double sigma = 1, const Shape& shape = {}, Device device = current_device()) { return default_generator().lognormal<T>(mean, sigma, shape, device); }
/// Generator::exponential of the default generator.
template <RealSample T = double>
ndarray<T> exponential(double scale = 1, const Shape& shape = {}, Device device = current_device()) { return default_generator().exponential<T>(scale, shape, device); }
/// Generator::standard_exponential of the default generator.
template <RealSample T = double>
ndarray<T> standard_exponential(const Shape& shape = {}, Device device = current_device()) { return default_generator().standard_exponential<T>(shape, device); }
/// Generator::laplace of the default generator.
template <RealSample T = double>
ndarray<T> laplace(double loc = 0, double scale = 1, const Shape& shape = {}, Device device = current_device()) { return default_generator().laplace<T>(loc, scale, shape, device); }
/// Generator::logistic of the default generator.
template <RealSample T = double>
ndarray<T> logistic(double loc = 0, double scale = 1, const Shape& shape = {}, Device device = current_device()) { return default_generator().logistic<T>(loc, scale, shape, device); }
/// Generator::gumbel of the default generator.
template <RealSample T = double>
ndarray<T> gumbel(double loc = 0, double scale = 1, const Shape& shape = {}, Device device = current_device()) { return default_generator().gumbel<T>(loc, scale, shape, device); }
/// Generator::weibull of the default generator.
template <RealSample T = double>
ndarray<T> weibull(double a, const Shape& shape = {}, Device device = current_device()) { return default_generator().weibull<T>(a, shape, device); }
/// Generator::gamma of the default generator.
template <RealSample T = double>
ndarray<T> gamma(double shape_k, double scale = 1, const Shape& shape = {}, Device device = current_device()) { return default_generator().gamma<T>(shape_k, scale, shape, device); }
/// Generator::standard_gamma of the default generator.
template <RealSample T = double>
ndarray<T> standard_gamma(double shape_k, const Shape& shape = {}, Device device = current_device()) { return default_generator().standard_gamma<T>(shape_k, shape, device); }
/// Generator::beta of the default generator.
template <RealSample T = double>
ndarray<T> beta(double a, double b, const Shape& shape = {}, Device device = current_device()) { return default_generator().beta<T>(a, b, shape, device); }
/// Generator::chisquare of the default generator.
template <RealSample T = double>
ndarray<T> chisquare(double df, const Shape& shape = {}, Device device = current_device()) { return default_generator().chisquare<T>(df, shape, device); }
/// Generator::standard_t of the default generator.
template <RealSample T = double>
ndarray<T> standard_t(double df, const Shape& shape = {}, Device device = current_device()) { return default_generator().standard_t<T>(df, shape, device); }
/// Generator::integers of the default generator.
template <IntegerSample T = std::int64_t>
ndarray<T> integers(std::int64_t low, std::int64_t high, const Shape& shape = {}, bool endpoint = false, Device device = current_device()) { return default_generator().integers<T>(low, high, shape, endpoint, device); }
/// Generator::bernoulli of the default generator.
template <class T = bool>
ndarray<T> bernoulli(double p, const Shape& shape = {}, Device device = current_device()) { return default_generator().bernoulli<T>(p, shape, device); }
/// Generator::geometric of the default generator.
inline ndarray<std::int64_t> geometric(double p, const Shape& shape = {}, Device device = current_device()) { return default_generator().geometric(p, shape, device); }
/// Generator::poisson of the default generator.
inline ndarray<std::int64_t> poisson(double lam = 1, const Shape& shape = {}, Device device = current_device()) { return default_generator().poisson(lam, shape, device); }
/// Generator::binomial of the default generator.
inline ndarray<std::int64_t> binomial(std::int64_t n, double p, const Shape& shape = {}, Device device = current_device()) { return default_generator().binomial(n, p, shape, device); }
/// Generator::permutation of the default generator.
inline ndarray<std::int64_t> permutation(std::int64_t n, Device device = current_device()) { return default_generator().permutation(n, device); }
/// Generator::permutation of the default generator.
template <class T>
ndarray<T> permutation(const ndarray<T>& a, int axis = 0) { return default_generator().permutation(a, axis); }
/// Generator::shuffle of the default generator.
template <class T>
void shuffle(const ndarray<T>& a, int axis = 0) { default_generator().shuffle(a, axis); }
/// Generator::choice of the default generator.
inline ndarray<std::int64_t> choice(std::int64_t n, const Shape& size = {}, bool replace = true, const std::vector<double>& p = {}, Device device = current_device()) { return default_generator().choice(n, size, replace, p, device); }
/// Generator::choice of the default generator.
template <class T>
ndarray<T> choice(const ndarray<T>& a, const Shape& size = {}, bool replace = true, const std::vector<double>& p = {}) { return default_generator().choice(a, size, replace, p); }
/// Generator::multinomial of the default generator.
inline ndarray<std::int64_t> multinomial(std::int64_t n, const std::vector<double>& pvals, const Shape& size = {}, Device device = current_device()) { return default_generator().multinomial(n, pvals, size, device); }
/// Generator::dirichlet of the default generator.
template <RealSample T = double>
ndarray<T> dirichlet(const std::vector<double>& alpha, const Shape& size = {}, Device device = current_device()) { return default_generator().dirichlet<T>(alpha, size, device); }
// clang-format on

}  // namespace xp::random
