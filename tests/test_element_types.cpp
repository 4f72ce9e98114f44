// xp::float16 and xp::bfloat16 as values: every bit pattern decoded against the formats' definitions,
// and conversions from float and double checked against a reference that finds the nearest
// representable value by search (ties to the even bit pattern), not by bit arithmetic.
#include <doctest/doctest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>
#include <vector>

#include "xp/kernels/element_types.hpp"

namespace {

// The value of binary16 bits from the format's definition.
double half_value(std::uint16_t h) {
  const int sign = h >> 15, exponent = (h >> 10) & 0x1f, mantissa = h & 0x3ff;
  const double magnitude = exponent == 0 ? std::ldexp(mantissa, -24) : std::ldexp(1024 + mantissa, exponent - 25);
  return sign ? -magnitude : magnitude;
}

// The value of bfloat16 bits from the format's definition.
double bfloat_value(std::uint16_t b) {
  const int sign = b >> 15, exponent = (b >> 7) & 0xff, mantissa = b & 0x7f;
  const double magnitude = exponent == 0 ? std::ldexp(mantissa, -133) : std::ldexp(128 + mantissa, exponent - 134);
  return sign ? -magnitude : magnitude;
}

// The non-negative finite values of a format in increasing order, then its infinity standing at the
// next step (2^16 for binary16, 2^128 for bfloat16), as round-to-nearest treats it.
struct Ladder {
  std::vector<double> values;
  std::vector<std::uint16_t> bits;
};

Ladder ladder(double (*value)(std::uint16_t), std::uint16_t infinity, double infinity_step) {
  Ladder l;
  for (std::uint32_t b = 0; b < infinity; ++b) {
    l.values.push_back(value(static_cast<std::uint16_t>(b)));
    l.bits.push_back(static_cast<std::uint16_t>(b));
  }
  l.values.push_back(infinity_step);
  l.bits.push_back(infinity);
  return l;
}

// The bits nearest to x (finite), ties to the even pattern.
std::uint16_t nearest(const Ladder& l, double x) {
  const double magnitude = std::fabs(x);
  const std::uint16_t sign = std::signbit(x) ? 0x8000 : 0;
  const auto above = std::lower_bound(l.values.begin(), l.values.end(), magnitude);
  if (above == l.values.end()) return sign | l.bits.back();
  const auto k = static_cast<std::size_t>(above - l.values.begin());
  if (*above == magnitude || k == 0) return sign | l.bits[k];
  const double up = *above - magnitude, down = magnitude - l.values[k - 1];
  const std::size_t pick = up < down ? k : down < up ? k - 1 : (l.bits[k] % 2 == 0 ? k : k - 1);
  return sign | l.bits[pick];
}

}  // namespace

TEST_CASE("float16 and bfloat16 are two bytes laid out as CUDA's __half and __nv_bfloat16") {
  static_assert(sizeof(xp::float16) == 2 && alignof(xp::float16) == 2);
  static_assert(sizeof(xp::bfloat16) == 2 && alignof(xp::bfloat16) == 2);
  static_assert(std::is_trivially_copyable_v<xp::float16> && std::is_standard_layout_v<xp::float16>);
  static_assert(std::is_trivially_copyable_v<xp::bfloat16> && std::is_standard_layout_v<xp::bfloat16>);
  static_assert(!std::is_same_v<xp::float16, xp::bfloat16>);
  CHECK(xp::float16(1.0f).bits == 0x3c00);
  CHECK(xp::bfloat16(1.0f).bits == 0x3f80);
}

TEST_CASE("every float16 and bfloat16 bit pattern reads as the format defines it") {
  for (std::uint32_t b = 0; b <= 0xffff; ++b) {
    const auto bits = static_cast<std::uint16_t>(b);
    const float h = xp::float16::from_bits(bits), f = xp::bfloat16::from_bits(bits);
    if ((b & 0x7c00) == 0x7c00) {
      CHECK(((b & 0x3ff) ? std::isnan(h) : std::isinf(h)));
    } else {
      REQUIRE(static_cast<double>(h) == half_value(bits));
      REQUIRE(std::signbit(h) == ((b & 0x8000) != 0));
      CHECK(xp::float16(h).bits == bits);  // back to the same bits
    }
    if ((b & 0x7f80) == 0x7f80) {
      CHECK(((b & 0x7f) ? std::isnan(f) : std::isinf(f)));
    } else {
      REQUIRE(static_cast<double>(f) == bfloat_value(bits));
      CHECK(xp::bfloat16(f).bits == bits);
    }
  }
}

TEST_CASE("floats round to the nearest float16 and bfloat16, ties to even, beyond the largest to infinity") {
  const Ladder half = ladder(half_value, 0x7c00, 65536.0), bfloat = ladder(bfloat_value, 0x7f80, std::ldexp(1.0, 128));
  // A million float bit patterns spread over all of them (every sign, exponent and rounding case).
  for (std::uint64_t pattern = 0; pattern <= 0xffffffffu; pattern += 4093) {
    const float x = std::bit_cast<float>(static_cast<std::uint32_t>(pattern));
    if (std::isnan(x)) {
      CHECK(std::isnan(static_cast<float>(xp::float16(x))));
      CHECK(std::isnan(static_cast<float>(xp::bfloat16(x))));
      continue;
    }
    const double exact = x;
    if (std::isinf(x)) continue;
    REQUIRE(xp::float16(x).bits == nearest(half, exact));
    REQUIRE(xp::bfloat16(x).bits == nearest(bfloat, exact));
  }
  CHECK(xp::float16(65519.0f).bits == 0x7bff);  // below the midpoint to infinity: 65504
  CHECK(xp::float16(65520.0f).bits == 0x7c00);  // the midpoint: ties to even, infinity
  CHECK(xp::float16(-std::numeric_limits<float>::infinity()).bits == 0xfc00);
  CHECK(xp::float16(std::ldexp(1.0f, -25)).bits == 0x0000);  // halfway to the smallest subnormal
  CHECK(xp::float16(std::nextafter(std::ldexp(1.0f, -25), 1.0f)).bits == 0x0001);
  CHECK(xp::float16(-0.0f).bits == 0x8000);
}

TEST_CASE("doubles and integers round once to the nearest 2-byte value, not through float") {
  // 1 + 2^-11 + 2^-40 lies just above a float16 tie; through float it would land on the tie and go to 1.
  const double above_tie = 1.0 + std::ldexp(1.0, -11) + std::ldexp(1.0, -40);
  CHECK(xp::float16(above_tie).bits == 0x3c01);
  CHECK(xp::float16(1.0 + std::ldexp(1.0, -11)).bits == 0x3c00);  // the tie itself: even
  CHECK(xp::bfloat16(1.0 + std::ldexp(1.0, -8) + std::ldexp(1.0, -40)).bits == 0x3f81);
  const Ladder half = ladder(half_value, 0x7c00, 65536.0);
  for (double d : {1e-8, 3.14159265358979, -2.5e-5, 6.1e-5, 65504.4, 1e300, -1e-300})
    CHECK(xp::float16(d).bits == nearest(half, d));
  CHECK(xp::float16(3).bits == 0x4200);
  CHECK(xp::float16(std::int64_t{65521}).bits == 0x7c00);
  CHECK(xp::bfloat16(257).bits == 0x4380);  // 257 = 256 + 1: the tie between 256 and 258 goes to even 256
}

TEST_CASE("2-byte arithmetic computes in float and rounds once; overflow is infinity, as NumPy's") {
  const xp::float16 a(0.1f), b(0.2f);
  CHECK((a + b).bits == xp::float16(static_cast<float>(a) + static_cast<float>(b)).bits);
  CHECK((a * b).bits == xp::float16(static_cast<float>(a) * static_cast<float>(b)).bits);
  CHECK(std::isinf(static_cast<float>(xp::float16(60000.0f) + xp::float16(60000.0f))));
  CHECK((-xp::float16(2.0f)).bits == 0xc000);
  xp::bfloat16 sum(0.0f);
  for (int k = 0; k < 300; ++k) sum += xp::bfloat16(1.0f);
  CHECK(static_cast<float>(sum) == 256.0f);  // 256 + 1 rounds back to 256: eight significand bits
  const float mixed = xp::float16(0.5f) * 3.0f;  // reads as float
  CHECK(mixed == 1.5f);
  CHECK(xp::float16(1.0f) < xp::float16(2.0f));
  CHECK(xp::bfloat16(-0.0f) == xp::bfloat16(0.0f));
}
