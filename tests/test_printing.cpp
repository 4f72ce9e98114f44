// Printing matches MXNet's NDArray repr: NumPy's str() of the elements (the expected texts below are
// what NumPy 2.4 prints for the same values), then "<ndarray shape @device>".
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>
#include <string>

#include "device_cases.hpp"

namespace {

template <class A>
std::string printed(const A& a) {
  std::ostringstream out;
  out << a;
  return out.str();
}

// The element text only: what precedes "\n<ndarray".
template <class A>
std::string elements(const A& a) {
  const std::string text = printed(a);
  return text.substr(0, text.rfind("\n<ndarray"));
}

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

}  // namespace

XP_TEST_ON_DEVICES("arrays print as in the d2l chapter") {
  CHECK(printed(xp::array<float>({1, 2, 3}, device)) == "[1. 2. 3.]\n<ndarray 3 @" + device.str() + ">");
  CHECK(printed(xp::array<float>({{1, 2, 3}, {4, 5, 6}}, device)) ==
        "[[1. 2. 3.]\n [4. 5. 6.]]\n<ndarray 2x3 @" + device.str() + ">");
  const xp::ndarray<> dynamic = xp::zeros<int>({2, 1, 2}, device);
  CHECK(printed(dynamic) == "[[[0 0]]\n\n [[0 0]]]\n<ndarray 2x1x2 @" + device.str() + ">");
}

TEST_CASE("floats print with NumPy's precision and padding") {
  CHECK(elements(xp::array<float>({0.5f, 0.25f, 1.0f})) == "[0.5  0.25 1.  ]");
  CHECK(elements(xp::array<double>({M_PI, -1.0})) == "[ 3.14159265 -1.        ]");
  CHECK(elements(xp::array<float>({1.0f / 3, 2.0f / 3})) == "[0.33333334 0.6666667 ]");
  CHECK(elements(xp::array<float>({0.1f, 0.2f, 0.3f})) == "[0.1 0.2 0.3]");
  CHECK(elements(xp::array<float>({0.5488135f, 0.5928446f, 0.71518934f})) == "[0.5488135  0.5928446  0.71518934]");
  CHECK(elements(xp::array<double>({0.123456789012, 1.0})) == "[0.12345679 1.        ]");
  CHECK(elements(xp::array<double>({-0.0, 1.0})) == "[-0.  1.]");
  CHECK(elements(xp::array<double>({0.0, 0.0})) == "[0. 0.]");
}

TEST_CASE("floats switch to scientific notation as NumPy does") {
  CHECK(elements(xp::array<double>({1e-5, 1.0})) == "[1.e-05 1.e+00]");
  CHECK(elements(xp::array<double>({1.0, 2000.0})) == "[1.e+00 2.e+03]");
  CHECK(elements(xp::array<double>({1.5e-5, 1.0})) == "[1.5e-05 1.0e+00]");
  CHECK(elements(xp::array<double>({1e100, 1e-100})) == "[1.e+100 1.e-100]");
  CHECK(elements(xp::array<double>({1e8, 1.0})) == "[1.e+08 1.e+00]");
  CHECK(elements(xp::array<double>({123456.789, 0.001})) == "[1.23456789e+05 1.00000000e-03]");
  CHECK(elements(xp::array<double>({1e16})) == "[1.e+16]");
}

TEST_CASE("non-finite values") {
  CHECK(elements(xp::array<double>({kNaN, 1.0, -kInf})) == "[ nan   1. -inf]");
  CHECK(elements(xp::array<double>({kNaN})) == "[nan]");
  CHECK(elements(xp::array<double>({{1.5, kNaN}, {2.0, 3.25}})) == "[[1.5   nan]\n [2.   3.25]]");
}

TEST_CASE("integers and booleans") {
  CHECK(elements(xp::array<std::int64_t>({1, 2, 10})) == "[ 1  2 10]");
  CHECK(elements(xp::array<int>({-5, 3})) == "[-5  3]");
  CHECK(elements(xp::array<std::int8_t>({-128, 127})) == "[-128  127]");
  CHECK(elements(xp::array<std::uint64_t>({18446744073709551615u, 0})) ==
        "[18446744073709551615                    0]");
  CHECK(elements(xp::array<bool>({true, false})) == "[ True False]");
  CHECK(elements(xp::array<bool>({true, true})) == "[ True  True]");
}

TEST_CASE("long rows wrap at 75 columns") {
  CHECK(elements(xp::arange<double>(30)) ==
        "[ 0.  1.  2.  3.  4.  5.  6.  7.  8.  9. 10. 11. 12. 13. 14. 15. 16. 17.\n"
        " 18. 19. 20. 21. 22. 23. 24. 25. 26. 27. 28. 29.]");
  const std::string wide = elements(xp::arange<std::int64_t>(0, 100000, 1000));
  CHECK(wide.substr(0, wide.find('\n')) == "[    0  1000  2000  3000  4000  5000  6000  7000  8000  9000 10000 11000");
  CHECK(wide.substr(wide.rfind('\n')) == "\n 96000 97000 98000 99000]");
  CHECK(std::count(wide.begin(), wide.end(), '\n') == 8);
}

TEST_CASE("large arrays are summarised with their edge items") {
  CHECK(elements(xp::arange<std::int64_t>(2000)) == "[   0    1    2 ... 1997 1998 1999]");
  CHECK(elements(xp::arange<double>(2000).reshape({100, 20})) ==
        "[[0.000e+00 1.000e+00 2.000e+00 ... 1.700e+01 1.800e+01 1.900e+01]\n"
        " [2.000e+01 2.100e+01 2.200e+01 ... 3.700e+01 3.800e+01 3.900e+01]\n"
        " [4.000e+01 4.100e+01 4.200e+01 ... 5.700e+01 5.800e+01 5.900e+01]\n"
        " ...\n"
        " [1.940e+03 1.941e+03 1.942e+03 ... 1.957e+03 1.958e+03 1.959e+03]\n"
        " [1.960e+03 1.961e+03 1.962e+03 ... 1.977e+03 1.978e+03 1.979e+03]\n"
        " [1.980e+03 1.981e+03 1.982e+03 ... 1.997e+03 1.998e+03 1.999e+03]]");
}

TEST_CASE("higher dimensions, views, empty and 0-d arrays") {
  CHECK(elements(xp::arange<std::int64_t>(12).reshape({2, 2, 3})) ==
        "[[[ 0  1  2]\n  [ 3  4  5]]\n\n [[ 6  7  8]\n  [ 9 10 11]]]");
  CHECK(elements(xp::zeros<double>({2, 2, 2, 2})) ==
        "[[[[0. 0.]\n   [0. 0.]]\n\n  [[0. 0.]\n   [0. 0.]]]\n\n\n"
        " [[[0. 0.]\n   [0. 0.]]\n\n  [[0. 0.]\n   [0. 0.]]]]");
  CHECK(elements(xp::arange<double>(12).reshape({3, 4}).transpose()) ==
        "[[ 0.  4.  8.]\n [ 1.  5.  9.]\n [ 2.  6. 10.]\n [ 3.  7. 11.]]");
  CHECK(printed(xp::zeros<double>({0, 3})) == "[]\n<ndarray 0x3 @cpu(0)>");
  CHECK(printed(xp::full<float>({}, 5.0f)) == "5.0\n<ndarray  @cpu(0)>");
  CHECK(elements(xp::full<std::int64_t>({}, 7)) == "7");
  CHECK(elements(xp::full<bool>({}, true)) == "True");
  CHECK(elements(xp::full<double>({}, 1e-5)) == "1e-05");
  CHECK(elements(xp::full<double>({}, -0.0)) == "-0.0");
}
