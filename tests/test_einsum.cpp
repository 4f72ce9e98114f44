// einsum against a brute-force loop over every label's values (each product summed into its output
// element, in double), NumPy's implicit outputs, ellipses and broadcasting, dtypes kept as NumPy's einsum
// keeps them, its errors, and gradients against finite differences.
#include <doctest/doctest.h>

#include <algorithm>
#include <complex>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "device_cases.hpp"
#include "gradient_check.hpp"
#include "xp/xp.hpp"

namespace {

using D = xp::ndarray<double>;

// Explicit letters-only subscripts ("ij,jk->ik") evaluated by visiting every assignment of the labels.
std::vector<double> brute_force(const std::string& subscripts, const std::vector<D>& operands) {
  const std::size_t arrow = subscripts.find("->");
  std::vector<std::string> terms(1);
  for (const char c : subscripts.substr(0, arrow)) {
    if (c == ',') terms.emplace_back();
    else terms.back().push_back(c);
  }
  const std::string output = subscripts.substr(arrow + 2);
  std::map<char, std::int64_t> extents;
  std::vector<std::vector<double>> values;
  for (std::size_t t = 0; t < terms.size(); ++t) {
    for (std::size_t axis = 0; axis < terms[t].size(); ++axis)
      extents[terms[t][axis]] = std::max(extents[terms[t][axis]], operands[t].shape()[static_cast<int>(axis)]);
    values.push_back(operands[t].to_vector());
  }
  // Row-major offset of `labels` in an array of `shape` at the assignment `at` (extent-1 axes broadcast).
  const auto offset = [&](const std::string& labels, const xp::Shape& shape, std::map<char, std::int64_t>& at) {
    std::int64_t flat = 0;
    for (std::size_t axis = 0; axis < labels.size(); ++axis) {
      const std::int64_t n = shape[static_cast<int>(axis)];
      flat = flat * n + (n == 1 ? 0 : at[labels[axis]]);
    }
    return flat;
  };
  xp::Shape out_shape;
  for (const char c : output) out_shape.push_back(extents[c]);
  std::vector<double> result(static_cast<std::size_t>(xp::numel(out_shape)), 0.0);
  std::map<char, std::int64_t> at;
  for (const auto& [label, n] : extents) at[label] = 0;
  const bool empty = std::any_of(extents.begin(), extents.end(), [](const auto& label) { return label.second == 0; });
  for (bool more = !empty; more;) {
    double product = 1;
    for (std::size_t t = 0; t < terms.size(); ++t)
      product *= values[t][static_cast<std::size_t>(offset(terms[t], operands[t].shape(), at))];
    result[static_cast<std::size_t>(offset(output, out_shape, at))] += product;
    more = false;
    for (auto& [label, index] : at) {
      if (++index < extents[label]) {
        more = true;
        break;
      }
      index = 0;
    }
  }
  return result;
}

void check_against_loops(const std::string& subscripts, const std::vector<xp::Shape>& shapes, xp::Device device) {
  std::vector<D> operands;
  for (std::size_t i = 0; i < shapes.size(); ++i)
    operands.push_back(xp_test::smooth_values(shapes[i], device, 0.3 * static_cast<double>(i)));
  const D result(xp::einsum(subscripts, std::vector<xp::ndarray<>>(operands.begin(), operands.end())));
  const std::vector<double> expected = brute_force(subscripts, operands), got = result.to_vector();
  INFO(subscripts);
  REQUIRE(got.size() == expected.size());
  for (std::size_t k = 0; k < got.size(); ++k) CHECK(got[k] == doctest::Approx(expected[k]).epsilon(1e-12));
}

}  // namespace

XP_TEST_ON_DEVICES("einsum sums the products over every label the output leaves out") {
  check_against_loops("ij,jk->ik", {{3, 4}, {4, 5}}, device);
  check_against_loops("bij,bjk->bik", {{2, 3, 4}, {2, 4, 5}}, device);
  check_against_loops("ijk,ikl,lm->jm", {{2, 3, 4}, {2, 4, 3}, {3, 2}}, device);  // batch label i summed late
  check_against_loops("ab,bc,cd,de->ae", {{2, 3}, {3, 4}, {4, 5}, {5, 2}}, device);
  check_against_loops("ii->i", {{3, 3}}, device);
  check_against_loops("ii->", {{4, 4}}, device);
  check_against_loops("iij,jk->ki", {{3, 3, 2}, {2, 4}}, device);  // a diagonal, then a contraction
  check_against_loops("ij->ji", {{2, 3}}, device);
  check_against_loops("ijk->", {{2, 3, 4}}, device);
  check_against_loops("ij,kl->lijk", {{2, 3}, {2, 2}}, device);  // nothing summed: a broadcast multiply
  check_against_loops("i,i,i->i", {{5}, {5}, {5}}, device);
  check_against_loops("ij,ij->ij", {{2, 1}, {2, 3}}, device);  // a label of extent 1 broadcasts
  check_against_loops("ij,jk->ik", {{2, 1}, {3, 4}}, device);  // ... also where it is summed
  check_against_loops("ij,jk->ik", {{2, 0}, {0, 3}}, device);  // an empty sum is 0
}

XP_TEST_ON_DEVICES("einsum's implicit output, ellipses and spaces are NumPy's") {
  const D a = xp_test::smooth_values({2, 3}, device), b = xp_test::smooth_values({3, 4}, device, 0.5);
  CHECK(D(xp::einsum("ij,jk", a, b)).to_vector() == D(xp::einsum("ij,jk->ik", a, b)).to_vector());
  CHECK(D(xp::einsum("ba", a)).to_vector() == D(xp::einsum("ba->ab", a)).to_vector());  // letters sorted
  CHECK(xp::einsum("ij,ij", a, a).ndim() == 0);
  CHECK(D(xp::einsum(" i j -> j i ", a)).shape() == xp::Shape(3, 2));
  // Ellipses broadcast as matmul's batch axes do: (2, 1, 3, 4) and (5, 4, 2) -> (2, 5, 3, 2).
  const D x = xp_test::smooth_values({2, 1, 3, 4}, device), y = xp_test::smooth_values({5, 4, 2}, device, 0.2);
  const D batched(xp::einsum("...ij,...jk->...ik", x, y));
  REQUIRE(batched.shape() == xp::Shape{2, 5, 3, 2});
  const auto expected = xp::matmul(x, y).to_vector(), got = batched.to_vector();
  for (std::size_t k = 0; k < got.size(); ++k) CHECK(got[k] == doctest::Approx(expected[k]).epsilon(1e-13));
  // Implicit output: the ellipsis axes first; the ellipsis in the middle of a term.
  CHECK(xp::einsum("i,...i", xp_test::smooth_values({4}, device), x).shape() == xp::Shape{2, 1, 3});
  CHECK(xp::einsum("i...j,j...->...", xp_test::smooth_values({2, 4, 3}, device), xp_test::smooth_values({3, 4}, device))
            .shape() == xp::Shape(4));
  const D scalar = xp::full<double>({}, 3.0, device);
  CHECK(D(xp::einsum("", scalar)).item() == 3.0);
  CHECK(D(xp::einsum("...->...", scalar)).item() == 3.0);
}

XP_TEST_ON_DEVICES("einsum computes in the promoted dtype and keeps it, as NumPy's") {
  const auto small = xp::array<std::int8_t>({100, 100}, device), ones = xp::array<std::int8_t>({1, 1}, device);
  const auto wrapped = xp::einsum("i,i", small, ones);  // NumPy: int8 -56
  CHECK(wrapped.dtype() == xp::dtype::int8);
  CHECK(xp::ndarray<std::int8_t>(wrapped).item() == -56);
  CHECK(xp::ndarray<std::int8_t>(xp::einsum("i->", small)).item() == -56);
  // With a float64 operand the int8 values are cast first: 200, not -56.
  const auto mixed = xp::einsum("i,->", small, xp::full<double>({}, 1.0, device));
  CHECK(mixed.dtype() == xp::dtype::float64);
  CHECK(D(mixed).item() == 200.0);
  const auto flags = xp::einsum("i,i", xp::array<bool>({true, false}, device), xp::array<bool>({true, true}, device));
  CHECK(flags.dtype() == xp::dtype::bool_);
  CHECK(xp::ndarray<bool>(flags).item());
  CHECK(xp::ndarray<bool>(xp::einsum("ij->", xp::zeros<bool>({2, 2}, device))).item() == false);
  using C = std::complex<double>;
  const auto u = xp::array<C>({C(1, 2), C(0, 1), C(3, -1), C(2, 2)}, device).reshape({2, 2});
  CHECK(xp::ndarray<C>(xp::einsum("ij,jk->ik", u, u)).to_vector() == xp::ndarray<C>(xp::matmul(u, u)).to_vector());
  CHECK(xp::ndarray<C>(xp::einsum("ii", u)).item() == C(3, 4));
}

XP_TEST_ON_DEVICES("einsum refuses what NumPy refuses") {
  const D a = xp_test::smooth_values({2, 3}, device), square = xp_test::smooth_values({2, 2}, device);
  CHECK_THROWS_WITH_AS(xp::einsum("ij,jk->iz", a, a.transpose()), doctest::Contains("'z' appears in no input"),
                       xp::ValueError);
  CHECK_THROWS_WITH_AS(xp::einsum("ij,jk", a, a), doctest::Contains("extents 3 and 2"), xp::ValueError);
  CHECK_THROWS_WITH_AS(xp::einsum("ii->i", a), doctest::Contains("differ (2 != 3)"), xp::ValueError);
  CHECK_THROWS_WITH_AS(xp::einsum("ij", square, square), doctest::Contains("name 1 operands but 2"), xp::ValueError);
  CHECK_THROWS_WITH_AS(xp::einsum("i->ii", xp_test::smooth_values({2}, device)),
                       doctest::Contains("appears more than once"), xp::ValueError);
  CHECK_THROWS_WITH_AS(xp::einsum("ij..,jk", square, square), doctest::Contains("'.'"), xp::ValueError);
  CHECK_THROWS_WITH_AS(xp::einsum("i1", square), doctest::Contains("invalid subscript '1'"), xp::ValueError);
  CHECK_THROWS_WITH_AS(xp::einsum("ijk", square), doctest::Contains("has 2 dimensions"), xp::ValueError);
  CHECK_THROWS_WITH_AS(xp::einsum("...i->i", a), doctest::Contains("no ellipsis"), xp::ValueError);
  CHECK_THROWS_AS(xp::einsum("i,i->i->", square, square), xp::ValueError);
  CHECK_THROWS_AS(xp::einsum("ij", std::vector<xp::ndarray<>>{}), xp::ValueError);
}

XP_TEST_ON_DEVICES("einsum's gradients") {
  using xp_test::Inputs;
  const D a = xp_test::smooth_values({2, 3, 4}, device), b = xp_test::smooth_values({2, 4, 3}, device, 0.7);
  const D square = xp_test::smooth_values({3, 3}, device, 0.2);
  xp_test::check_gradients([](const Inputs& x) { return D(xp::einsum("bij,bjk->bik", x[0], x[1])); }, {a, b});
  xp_test::check_gradients([](const Inputs& x) { return D(xp::einsum("bij,bjk,kl->il", x[0], x[1], x[2])); },
                           {a, b, square});
  xp_test::check_gradients([](const Inputs& x) { return D(xp::einsum("ii->i", x[0])); }, {square});
  xp_test::check_gradients([](const Inputs& x) { return D(xp::einsum("ij,ij->i", x[0], x[1])); },
                           {square, square.transpose()});
}
