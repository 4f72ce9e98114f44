// finfo, iinfo and can_cast against NumPy 2's answers (ml_dtypes 0.6's for bfloat16), printed by
// .venv's NumPy: np.finfo fields and np.can_cast over every pair of dtypes.
#include <doctest/doctest.h>

#include <cstdint>
#include <string>

#include "xp/type_info.hpp"

TEST_CASE("finfo: NumPy's limits of float16, bfloat16, float32, float64 and the complex types") {
  constexpr xp::FloatInfo h = xp::finfo<xp::float16>;
  static_assert(h.max == 65504.0 && h.eps == 0.0009765625 && h.tiny == 6.103515625e-05);
  CHECK(h.bits == 16);
  CHECK(h.nmant == 10);
  CHECK(h.nexp == 5);
  CHECK(h.minexp == -14);
  CHECK(h.maxexp == 16);
  CHECK(h.machep == -10);
  CHECK(h.negep == -11);
  CHECK(h.precision == 3);
  CHECK(h.resolution == doctest::Approx(0.001));
  CHECK(h.smallest_subnormal == 5.960464477539063e-08);
  CHECK(h.epsneg == 0.00048828125);
  CHECK(h.min == -65504.0);
  constexpr xp::FloatInfo b = xp::finfo<xp::bfloat16>;
  CHECK(b.eps == 0.0078125);
  CHECK(b.max == doctest::Approx(3.38953e+38).epsilon(1e-6));
  CHECK(b.tiny == doctest::Approx(1.17549e-38).epsilon(1e-5));
  CHECK(b.smallest_subnormal == doctest::Approx(9.18355e-41).epsilon(1e-5));
  CHECK(b.precision == 2);
  CHECK(b.minexp == -126);
  CHECK(b.maxexp == 128);
  CHECK(xp::finfo<float>.max == static_cast<double>(std::numeric_limits<float>::max()));
  CHECK(xp::finfo<float>.eps == static_cast<double>(std::numeric_limits<float>::epsilon()));
  CHECK(xp::finfo<float>.smallest_subnormal == static_cast<double>(std::numeric_limits<float>::denorm_min()));
  CHECK(xp::finfo<float>.precision == 6);
  CHECK(xp::finfo<double>.max == std::numeric_limits<double>::max());
  CHECK(xp::finfo<double>.tiny == std::numeric_limits<double>::min());
  CHECK(xp::finfo<double>.precision == 15);
  CHECK(xp::finfo<double>.type == xp::dtype::float64);
  // np.finfo(np.complex64) describes its parts: float32's fields, dtype float32.
  CHECK(xp::finfo<std::complex<float>>.type == xp::dtype::float32);
  CHECK(xp::finfo<std::complex<float>>.eps == xp::finfo<float>.eps);
  CHECK(xp::finfo<std::complex<double>>.max == std::numeric_limits<double>::max());
}

TEST_CASE("iinfo: the integer types' limits") {
  static_assert(xp::iinfo<std::int8_t>.min == -128 && xp::iinfo<std::int8_t>.max == 127);
  CHECK(xp::iinfo<std::uint64_t>.max == 18446744073709551615ull);
  CHECK(xp::iinfo<std::uint16_t>.bits == 16);
  CHECK(xp::iinfo<std::int64_t>.min == std::numeric_limits<std::int64_t>::min());
}

TEST_CASE("can_cast: NumPy's safe and same_kind tables over every pair of dtypes") {
  // Rows: from; columns: to; both in dtype order (bool, int8..int64, uint8..uint64, float32, float64,
  // float16, bfloat16, complex64, complex128). Printed by np.can_cast(a, b, casting) with ml_dtypes' bfloat16.
  const char* const safe[] = {"111111111111111", "011110000111111", "001110000110011", "000110000010001",
                              "000010000010001", "001111111111111", "000110111110011", "000010011010001",
                              "000000001010001", "000000000110011", "000000000010001", "000000000111011",
                              "000000000110111", "000000000000011", "000000000000001"};
  const char* const same_kind[] = {"111111111111111", "011110000111111", "011110000111111", "011110000111111",
                                   "011110000111111", "011111111111111", "011111111111111", "011111111111111",
                                   "011111111111111", "000000000111111", "000000000111111", "000000000111111",
                                   "000000000110111", "000000000000111", "000000000000111"};
  for (int a = 0; a < xp::kNumDtypes; ++a) {
    for (int b = 0; b < xp::kNumDtypes; ++b) {
      const auto from = static_cast<xp::dtype>(a), to = static_cast<xp::dtype>(b);
      CAPTURE(from);
      CAPTURE(to);
      CHECK(xp::can_cast(from, to) == (safe[a][b] == '1'));
      CHECK(xp::can_cast(from, to, xp::Casting::same_kind) == (same_kind[a][b] == '1'));
      CHECK(xp::can_cast(from, to, xp::Casting::no) == (a == b));
      CHECK(xp::can_cast(from, to, xp::Casting::unsafe));
    }
  }
}
