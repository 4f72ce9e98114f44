// Limits of shapes: every routine that makes one refuses negative extents, more than kMaxNdim axes and
// sizes that overflow 64 bits with a ValueError naming the shape, before it allocates (the pool's
// counters do not move).
#include <doctest/doctest.h>

#include <cstdint>
#include <vector>

#include "device_cases.hpp"
#include "xp/symbol.hpp"

namespace {

constexpr std::int64_t k40 = std::int64_t{1} << 40;
constexpr std::int64_t k62 = std::int64_t{1} << 62;

// Runs `make`, which must throw a ValueError whose message is `message`, and checks that the device's
// pool allocated nothing on the way.
template <class F>
void refuses(xp::Device device, F make, const char* message) {
  xp::MemoryPool& pool = xp::get_default_memory_pool(device);
  const std::size_t used = pool.used_bytes(), total = pool.total_bytes();
  CHECK_THROWS_WITH_AS(make(), message, xp::ValueError);
  CHECK(pool.used_bytes() == used);
  CHECK(pool.total_bytes() == total);
}

}  // namespace

XP_TEST_ON_DEVICES("creation and random refuse shapes that overflow, before allocating") {
  refuses(
      device, [&] { return xp::zeros<float>({k40, k40, 3}, device); },
      "an array of shape (1099511627776, 1099511627776, 3) and dtype float32 is too big");
  // The elements fit (2^62) but their bytes do not.
  refuses(
      device, [&] { return xp::empty<double>({k62}, device); },
      "an array of shape (4611686018427387904,) and dtype float64 is too big");
  refuses(
      device, [&] { return xp::ones<std::int8_t>({3, -2}, device); }, "negative dimensions are not allowed: (3, -2)");
  refuses(
      device, [&] { return xp::random::uniform<float>(0, 1, {k40, k40}, device); },
      "an array of shape (1099511627776, 1099511627776) and dtype float32 is too big");
  refuses(
      device, [&] { return xp::random::normal<double>(0, 1, {-1}, device); },
      "negative dimensions are not allowed: (-1,)");
  refuses(
      device, [&] { return xp::full<float>(std::vector<std::int64_t>(17, 1), 2.0f, device); },
      "17 extents (1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1): arrays have at most 16 dimensions");
}

XP_TEST_ON_DEVICES("reshape and broadcast_to refuse shapes that overflow") {
  const auto three = xp::arange<float>(3, device);
  // A new user's first try: the view's element count would have wrapped around.
  refuses(
      device, [&] { return three.broadcast_to({k40, k40, 3}); },
      "broadcast_to: an array of shape (1099511627776, 1099511627776, 3) and dtype float32 is too big");
  refuses(device, [&] { return three.broadcast_to({-3}); }, "broadcast_to: negative dimensions are not allowed: (-3,)");
  // A view may be huge if its bytes fit: 2^40 x 3 float32 elements over 3 stored ones.
  CHECK(three.broadcast_to({k40, 3}).size() == static_cast<std::size_t>(3 * k40));

  const auto none = xp::zeros<double>({0}, device);
  refuses(
      device, [&] { return none.reshape({k40, k40, k40, 0}); },
      "reshape: cannot reshape array of size 0 into shape (1099511627776, 1099511627776, 1099511627776, 0)");
  refuses(
      device, [&] { return none.reshape({k62, 0}); },
      "reshape: an array of shape (4611686018427387904, 0) and dtype float64 is too big");
  refuses(
      device, [&] { return xp::arange<float>(6, device).reshape({k62, k62, -1}); },
      "reshape: cannot reshape array of size 6 into shape (4611686018427387904, 4611686018427387904, -1)");
  CHECK(none.reshape({k40, 0}).shape() == xp::Shape(k40, 0));
}

XP_TEST_ON_DEVICES("operations whose operands broadcast to a shape that overflows refuse it") {
  const auto one = xp::ones<float>({1, 1}, device);
  const auto column = one.broadcast_to({k40, 1}), row = one.broadcast_to({1, k40});
  refuses(
      device, [&] { return column + row; },
      "add: a shape of (1099511627776, 1099511627776) has more elements than 64 bits count");
  refuses(
      device, [&] { return xp::maximum(column, row); },
      "maximum: a shape of (1099511627776, 1099511627776) has more elements than 64 bits count");
}

XP_TEST_ON_DEVICES("shape functions refuse shapes that overflow or have too many axes") {
  const auto half = xp::zeros<std::int8_t>({1}, device).broadcast_to({k62});
  refuses(
      device, [&] { return xp::concatenate({half, half}); },
      "concatenate: extents 4611686018427387904 and 4611686018427387904 add up past 64 bits (joining the "
      "array of shape (4611686018427387904,))");
  const auto deep = xp::zeros<float>(std::vector<std::int64_t>(16, 1), device);
  refuses(
      device, [&] { return xp::stack({deep, deep}); },
      "stack: arrays of shape (1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1) stack into 17 dimensions; arrays "
      "have at most 16");
  refuses(
      device, [&] { return xp::expand_dims(deep, 0); },
      "expand_dims: an array of shape (1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1) with 1 new axes has 17 "
      "dimensions; arrays have at most 16");
}

XP_TEST_ON_DEVICES("matmul and dot refuse results that overflow or have too many axes") {
  // (2^40, 1, 2) @ (2, 2^40): a batch of 2^40 products of 1 x 2^40 each.
  const auto a = xp::zeros<std::int8_t>({1, 1, 2}, device).broadcast_to({k40, 1, 2});
  const auto b = xp::zeros<std::int8_t>({1, 1}, device).broadcast_to({2, k40});
  refuses(
      device, [&] { return xp::matmul(a, b); },
      "matmul: a shape of (1099511627776, 1, 1099511627776) has more elements than 64 bits count");
  const auto c = xp::zeros<float>({1, 2}, device).broadcast_to({k40, 2});
  const auto d = xp::zeros<float>({2, 1}, device).broadcast_to({2, k40});
  refuses(
      device, [&] { return xp::dot(c, d); },
      "matmul: a shape of (1099511627776, 1099511627776) has more elements than 64 bits count");
  const auto deep = xp::zeros<float>(std::vector<std::int64_t>(10, 1), device);
  refuses(
      device, [&] { return xp::dot(deep, deep); },
      "dot: the product of shapes (1, 1, 1, 1, 1, 1, 1, 1, 1, 1) and (1, 1, 1, 1, 1, 1, 1, 1, 1, 1) would have 18 "
      "dimensions; arrays have at most 16");
}

TEST_CASE("infer_shape refuses shapes that overflow, given or inferred") {
  const auto data = xp::sym::var("data");
  const auto fc = xp::sym::FullyConnected(data, k40, "fc");
  // The output (batch, hidden) overflows although the data's shape fits.
  CHECK_THROWS_WITH_AS(
      fc.infer_shape({{"data", xp::Shape(k40, 2)}}),
      "infer_shape: 'fc': a shape of (1099511627776, 1099511627776) has more elements than 64 bits count",
      xp::ValueError);
  // The weight (hidden, inputs) overflows although data and output fit.
  CHECK_THROWS_WITH_AS(fc.infer_shape({{"data", xp::Shape(1, k40)}}),
                       "infer_shape: 'fc_weight': a shape of (1099511627776, 1099511627776) has more elements than "
                       "64 bits count",
                       xp::ValueError);
  CHECK_THROWS_WITH_AS(fc.infer_shape({{"data", xp::Shape(2, -3)}}),
                       "infer_shape: 'data': negative dimensions are not allowed: (2, -3)", xp::ValueError);
  CHECK_THROWS_WITH_AS(xp::sym::var("x", xp::Shape(k62, k62)).infer_shape({}),
                       "infer_shape: 'x': a shape of (4611686018427387904, 4611686018427387904) has more elements "
                       "than 64 bits count",
                       xp::ValueError);
  CHECK(fc.infer_shape({{"data", xp::Shape(4, 3)}}).arguments.at(1) == xp::Shape(k40, 3));
}
