// matmul and dot against a float64 reference written here from NumPy's rules, for every dtype and
// layout, on cpu(0), cpu(1), cpu_pinned(0) and gpu(0); the error paths; several threads at once.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <functional>
#include <numeric>
#include <thread>
#include <vector>

#include "core/matmul_plan.hpp"
#include "device_cases.hpp"
#include "xp/linalg.hpp"

namespace {

using Extents = std::vector<std::int64_t>;

struct Values {
  std::vector<double> data;  // C order
  Extents shape;
};

Values values_of(const xp::ndarray<>& a) {
  return {a.astype<double>().to_vector(), Extents(a.shape().begin(), a.shape().end())};
}

std::int64_t product_of(Extents::const_iterator begin, Extents::const_iterator end) {
  return std::accumulate(begin, end, std::int64_t{1}, std::multiplies<>());
}
std::int64_t product_of(const Extents& extents) { return product_of(extents.begin(), extents.end()); }

// The C-order position of `index` in `shape`, where index is right-aligned with shape and extents of 1
// broadcast.
std::int64_t broadcast_position(const Extents& shape, const Extents& index) {
  std::int64_t position = 0;
  const std::size_t skip = index.size() - shape.size();
  for (std::size_t axis = 0; axis < shape.size(); ++axis)
    position = position * shape[axis] + (shape[axis] == 1 ? 0 : index[skip + axis]);
  return position;
}

// NumPy's matmul, computed in float64.
Values reference_matmul(const Values& a, const Values& b) {
  Extents as = a.shape, bs = b.shape;
  if (as.size() == 1) as.insert(as.begin(), 1);
  if (bs.size() == 1) bs.push_back(1);
  const std::int64_t m = as[as.size() - 2], k = as.back(), n = bs.back();
  const Extents a_batch(as.begin(), as.end() - 2), b_batch(bs.begin(), bs.end() - 2);
  Extents batch(std::max(a_batch.size(), b_batch.size()), 1);
  for (std::size_t i = 0; i < batch.size(); ++i) {
    const std::size_t from_end = batch.size() - i;
    const std::int64_t ea = from_end <= a_batch.size() ? a_batch[a_batch.size() - from_end] : 1;
    const std::int64_t eb = from_end <= b_batch.size() ? b_batch[b_batch.size() - from_end] : 1;
    batch[i] = ea == 1 ? eb : ea;
  }
  Values c;
  c.shape = batch;
  if (a.shape.size() > 1) c.shape.push_back(m);
  if (b.shape.size() > 1) c.shape.push_back(n);
  const std::int64_t count = product_of(batch);
  c.data.assign(static_cast<std::size_t>(count * m * n), 0.0);
  Extents index(batch.size(), 0);
  for (std::int64_t t = 0; t < count; ++t) {
    const std::int64_t pa = broadcast_position(a_batch, index), pb = broadcast_position(b_batch, index);
    for (std::int64_t i = 0; i < m; ++i)
      for (std::int64_t j = 0; j < n; ++j) {
        double sum = 0;
        for (std::int64_t p = 0; p < k; ++p) sum += a.data[(pa * m + i) * k + p] * b.data[(pb * k + p) * n + j];
        c.data[(t * m + i) * n + j] = sum;
      }
    for (int axis = static_cast<int>(index.size()) - 1; axis >= 0 && ++index[axis] == batch[axis]; --axis)
      index[axis] = 0;
  }
  return c;
}

// NumPy's dot, computed in float64.
Values reference_dot(const Values& a, const Values& b) {
  if (a.shape.empty() || b.shape.empty()) {
    const Values& array = a.shape.empty() ? b : a;
    const double scalar = a.shape.empty() ? a.data[0] : b.data[0];
    Values c = array;
    for (double& v : c.data) v *= scalar;
    return c;
  }
  if (a.shape.size() < 2 || b.shape.size() < 2) return reference_matmul(a, b);
  const std::int64_t k = a.shape.back(), n = b.shape.back(), rows = product_of(a.shape.begin(), a.shape.end() - 1);
  const std::int64_t mats = product_of(b.shape.begin(), b.shape.end() - 2);
  Values c;
  c.shape.assign(a.shape.begin(), a.shape.end() - 1);
  c.shape.insert(c.shape.end(), b.shape.begin(), b.shape.end() - 2);
  c.shape.push_back(n);
  c.data.assign(static_cast<std::size_t>(rows * mats * n), 0.0);
  for (std::int64_t r = 0; r < rows; ++r)
    for (std::int64_t t = 0; t < mats; ++t)
      for (std::int64_t j = 0; j < n; ++j) {
        double sum = 0;
        for (std::int64_t p = 0; p < k; ++p) sum += a.data[r * k + p] * b.data[(t * k + p) * n + j];
        c.data[(r * mats + t) * n + j] = sum;
      }
  return c;
}

// The largest |got[i] - expected[i]|; infinite when the sizes differ.
double max_difference(const std::vector<double>& got, const std::vector<double>& expected) {
  if (got.size() != expected.size()) return INFINITY;
  double largest = 0;
  for (std::size_t i = 0; i < got.size(); ++i) largest = std::max(largest, std::abs(got[i] - expected[i]));
  return largest;
}

// Small integers that every dtype holds exactly (0 and 1 for bool, non-negative for unsigned types),
// so that every product is exact and compared exactly.
xp::ndarray<> operand(xp::dtype type, const Extents& shape, xp::Device device, int seed) {
  const int modulus = type == xp::dtype::bool_ ? 2 : 7;
  const bool non_negative = type == xp::dtype::bool_ || type == xp::dtype::uint8 || type == xp::dtype::uint16 ||
                            type == xp::dtype::uint32 || type == xp::dtype::uint64;
  const double offset = non_negative ? 0 : 3;
  std::vector<double> data(static_cast<std::size_t>(product_of(shape)));
  for (std::size_t i = 0; i < data.size(); ++i)
    data[i] = static_cast<double>((static_cast<int>(i) * 7919 + seed * 104729) % modulus) - offset;
  return xp::ndarray<>(xp::array<double>(data, xp::Shape(shape), device)).astype(type);
}

// Checks op(a, b) (dtype, shape, device, values exactly) against the reference of the same views.
void check_product(xp::detail::Product kind, const xp::ndarray<>& a, const xp::ndarray<>& b) {
  CAPTURE(a.shape());
  CAPTURE(b.shape());
  CAPTURE(a.dtype());
  const xp::ndarray<> c = kind == xp::detail::Product::matmul ? xp::matmul(a, b) : xp::dot(a, b);
  const Values va = values_of(a), vb = values_of(b);
  Values expected = kind == xp::detail::Product::matmul ? reference_matmul(va, vb) : reference_dot(va, vb);
  if (a.dtype() == xp::dtype::bool_)
    for (double& v : expected.data) v = v != 0;
  CHECK(c.dtype() == xp::promote_types(a.dtype(), b.dtype()));
  CHECK(c.device() == a.device());
  CHECK(Extents(c.shape().begin(), c.shape().end()) == expected.shape);
  CHECK(values_of(c).data == expected.data);
}

void check_matmul(const xp::ndarray<>& a, const xp::ndarray<>& b) { check_product(xp::detail::Product::matmul, a, b); }
void check_dot(const xp::ndarray<>& a, const xp::ndarray<>& b) { check_product(xp::detail::Product::dot, a, b); }

const xp::dtype kAllTypes[] = {xp::dtype::bool_,  xp::dtype::int8,    xp::dtype::int16,  xp::dtype::int32,
                               xp::dtype::int64,  xp::dtype::uint8,   xp::dtype::uint16, xp::dtype::uint32,
                               xp::dtype::uint64, xp::dtype::float32, xp::dtype::float64};

}  // namespace

// Each body runs on cpu(0), cpu_pinned(0), gpu(0) and, here, cpu(1).
#define XP_LINALG_CASE(name, function)                 \
  static void function(xp::Device device);             \
  XP_TEST_ON_DEVICES(name) { function(device); }       \
  TEST_CASE(name " @cpu(1)") { function(xp::cpu(1)); } \
  static void function(xp::Device device)

XP_LINALG_CASE("matmul: every dtype and layout against a float64 reference", matmul_layouts) {
  for (const xp::dtype type : kAllTypes) {
    const auto make = [&](const Extents& shape, int seed) { return operand(type, shape, device, seed); };
    check_matmul(make({2, 3}, 1), make({3, 4}, 2));  // C order
    check_matmul(make({3, 2}, 1).transpose(), make({4, 3}, 2).transpose());  // both transposed
    check_matmul(make({2, 3}, 1), make({4, 3}, 2).transpose());  // one transposed
    check_matmul(make({4, 3, 2}, 1).transpose(), make({5, 4, 2}, 2).transpose());  // F-ordered stacks
    check_matmul(make({5, 7}, 1)(xp::slice(1, 4), xp::slice(0, 6, 2)), make({3, 4}, 2));  // strided columns
    check_matmul(make({5, 7}, 1)(xp::slice(1, 3), xp::slice(2, 5)), make({6, 8}, 2)(xp::slice(0, 3), xp::slice(1, 5)));
    check_matmul(make({4, 3}, 1)(xp::slice(std::nullopt, std::nullopt, -1)), make({3, 2}, 2));  // negative stride
    check_matmul(make({2, 1, 3, 4}, 1), make({5, 4, 2}, 2));  // broadcast batch
    check_matmul(make({3, 4}, 1).broadcast_to({2, 3, 3, 4}), make({3, 4, 2}, 2));  // stride-0 batch
    check_matmul(make({6, 2, 3}, 1)(xp::slice(0, 6, 2)), make({3, 3, 5}, 2));  // strided batch
    check_matmul(make({3}, 1), make({3, 4}, 2));  // 1-D promotions
    check_matmul(make({2, 3}, 1), make({3}, 2));
    check_matmul(make({3}, 1), make({3}, 2));
    check_matmul(make({3}, 1), make({2, 3, 4}, 2));
    check_matmul(make({2, 2, 3}, 1), make({3}, 2));
    check_matmul(make({1, 1}, 1), make({1, 5}, 2));  // unit extents
    check_matmul(make({4, 1}, 1), make({1, 3}, 2));
  }
}

XP_LINALG_CASE("matmul: size-0 dimensions give empty results or zeros", matmul_empty) {
  for (const xp::dtype type : {xp::dtype::int32, xp::dtype::float32, xp::dtype::float64}) {
    const auto make = [&](const Extents& shape) { return operand(type, shape, device, 1); };
    check_matmul(make({0, 3}), make({3, 4}));
    check_matmul(make({2, 3}), make({3, 0}));
    check_matmul(make({2, 0}), make({0, 4}));  // k = 0: zeros
    check_matmul(make({0}), make({0}));
    check_matmul(make({0, 2, 3}), make({3, 4}));
    const xp::ndarray<> zeros = xp::matmul(make({2, 0}), make({0, 4}));
    CHECK(values_of(zeros).data == std::vector<double>(8, 0.0));
  }
}

XP_LINALG_CASE("dot: NumPy's rules for every dtype and layout", dot_layouts) {
  for (const xp::dtype type : kAllTypes) {
    const auto make = [&](const Extents& shape, int seed) { return operand(type, shape, device, seed); };
    check_dot(make({}, 1), make({2, 3}, 2));  // 0-d: multiply
    check_dot(make({4}, 1), make({}, 2));
    check_dot(make({4}, 1), make({4}, 2));  // inner product
    check_dot(make({2, 3}, 1), make({3, 4}, 2));
    check_dot(make({2, 3, 4}, 1), make({4}, 2));  // N-D . 1-D
    check_dot(make({4}, 1), make({2, 4, 3}, 2));  // 1-D . N-D
    check_dot(make({2, 3, 4}, 1), make({5, 4, 6}, 2));  // every row of a with every matrix of b
    check_dot(make({2, 3}, 1), make({4, 3, 5}, 2));
    check_dot(make({4, 3, 2}, 1).transpose(), make({2, 4, 3}, 2));  // a's rows not one stride
    check_dot(make({2, 3, 4}, 1), make({5, 6, 4}, 2).transpose(0, 2, 1));  // transposed stack
    check_dot(make({2, 0, 4}, 1), make({3, 4, 2}, 2));  // empty
    check_dot(make({2, 3, 0}, 1), make({3, 0, 2}, 2));  // k = 0
  }
}

XP_LINALG_CASE("matmul and dot: float32 and float64 against float64 within rounding", float_accuracy) {
  const auto uniform = [&](const Extents& shape, double scale) {
    std::vector<double> data(static_cast<std::size_t>(product_of(shape)));
    for (std::size_t i = 0; i < data.size(); ++i) data[i] = scale * std::sin(0.37 * static_cast<double>(i) + 0.1);
    return xp::array<double>(data, xp::Shape(shape), device);
  };
  for (const xp::dtype type : {xp::dtype::float32, xp::dtype::float64}) {
    const xp::ndarray<> a = xp::ndarray<>(uniform({3, 65, 130}, 1.5)).astype(type);
    const xp::ndarray<> b = xp::ndarray<>(uniform({130, 70}, 0.5)).astype(type);
    const Values expected = reference_matmul(values_of(a), values_of(b));
    const std::vector<double> got = values_of(xp::matmul(a, b)).data;
    const std::vector<double> got_t = values_of(xp::matmul(a, xp::copy(b.transpose()).transpose())).data;
    const double tolerance = type == xp::dtype::float32 ? 2e-5 : 1e-13;  // relative to the sum of |terms|
    CHECK(max_difference(got, expected.data) <= tolerance * 130 * 0.75);
    CHECK(max_difference(got_t, expected.data) <= tolerance * 130 * 0.75);
    // One product whose rows are split over the threads.
    const xp::ndarray<> tall = xp::ndarray<>(uniform({200, 64}, 1.0)).astype(type);
    const xp::ndarray<> narrow = xp::ndarray<>(uniform({64, 48}, 0.5)).astype(type);
    CHECK(max_difference(values_of(xp::matmul(tall, narrow)).data,
                         reference_matmul(values_of(tall), values_of(narrow)).data) <= tolerance * 64);
    // Stacks split over the threads.
    for (const std::int64_t n : {8, 40}) {
      const xp::ndarray<> s = xp::ndarray<>(uniform({600 / n * 8, n, n}, 1.0)).astype(type);
      const xp::ndarray<> t = xp::ndarray<>(uniform({n, n}, 0.5)).astype(type);
      const Values stack_expected = reference_matmul(values_of(s), values_of(t));
      CHECK(max_difference(values_of(xp::matmul(s, t)).data, stack_expected.data) <=
            tolerance * static_cast<double>(n));
      // An F-ordered B: OpenBLAS's, called inside the threads' parallel region.
      CHECK(max_difference(values_of(xp::matmul(s, xp::copy(t.transpose()).transpose())).data, stack_expected.data) <=
            tolerance * static_cast<double>(n));
    }
  }
}

XP_LINALG_CASE("matmul and dot: mixed dtypes promote, integers wrap around as NumPy's", promotion_and_wrapping) {
  const auto i32 = xp::array<std::int32_t>({{1, 2}, {3, 4}}, device);
  const auto f32 = xp::array<float>({{0.5f, 0}, {0, 0.25f}}, device);
  const auto mixed = xp::matmul(i32, f32);
  static_assert(std::is_same_v<decltype(mixed), const xp::ndarray<float>>);  // the library's promotion
  CHECK(mixed.to_vector() == std::vector<float>{0.5f, 0.5f, 1.5f, 1.0f});
  // int8: 100 * 2 + 100 * 1 = 300 = 44 (mod 256); uint8: 200 * 2 = 400 = 144 (mod 256).
  CHECK(xp::matmul(xp::array<std::int8_t>({{100, 100}}, device), xp::array<std::int8_t>({{2}, {1}}, device)).item() ==
        44);
  CHECK(xp::dot(xp::array<std::uint8_t>({200}, device), xp::array<std::uint8_t>({2}, device)).item() == 144);
  // int64: 2^62 * 4 wraps to 0; -2^63 * -1 wraps to -2^63.
  const std::int64_t big = std::int64_t{1} << 62;
  CHECK(xp::dot(xp::array<std::int64_t>({big, INT64_MIN}, device), xp::array<std::int64_t>({4, -1}, device)).item() ==
        INT64_MIN);
  // bool: OR of ANDs.
  const auto p = xp::array<bool>({{true, false}, {false, false}}, device);
  const auto q = xp::array<bool>({{true, true}, {true, false}}, device);
  CHECK(xp::matmul(p, q).to_vector() == std::vector<bool>{true, true, false, false});
}

XP_LINALG_CASE("matmul and dot: out of the right shape, dtype and device, or nothing written", out_rules) {
  const auto a = xp::array<float>({{1, 2}, {3, 4}}, device);
  const auto b = xp::array<float>({{5, 6}, {7, 8}}, device);
  auto out = xp::zeros<float>({2, 2}, device);
  CHECK(&xp::matmul(a, b, out) == &out);
  CHECK(out.to_vector() == std::vector<float>{19, 22, 43, 50});
  // F-ordered out: the product is computed as its transpose, straight into it.
  const auto f_out = xp::zeros<float>({2, 2}, device).transpose();
  xp::matmul(a, b, f_out);
  CHECK(f_out.to_vector() == std::vector<float>{19, 22, 43, 50});
  // A strided out that BLAS cannot write: through a temporary.
  const auto wide = xp::zeros<float>({2, 4}, device);
  xp::dot(a, b, wide(xp::slice(), xp::slice(0, 4, 2)));
  CHECK(wide.to_vector() == std::vector<float>{19, 0, 22, 0, 43, 0, 50, 0});
  // out aliasing an operand: as if computed into a new array.
  const auto square = xp::array<float>({{1, 2}, {3, 4}}, device);
  xp::matmul(square, square, square);
  CHECK(square.to_vector() == std::vector<float>{7, 10, 15, 22});

  const auto untouched = xp::full<float>({2, 3}, -1, device);
  CHECK_THROWS_WITH_AS(xp::matmul(a, b, untouched), "matmul: out has shape (2, 3) but the result has shape (2, 2)",
                       xp::ValueError);
  const auto ints = xp::full<std::int32_t>({2, 2}, -1, device);
  CHECK_THROWS_WITH_AS(xp::dot(a, b, ints), "dot: out is int32 but the result is float32", xp::TypeError);
  const xp::Device other = device == xp::cpu(1) ? xp::cpu(0) : xp::cpu(1);
  const auto elsewhere = xp::full<float>({2, 2}, -1, other);
  CHECK_THROWS_AS(xp::matmul(a, b, elsewhere), xp::DeviceMismatchError);
  CHECK(untouched.to_vector() == std::vector<float>(6, -1));
  CHECK(ints.to_vector() == std::vector<std::int32_t>(4, -1));
  CHECK(elsewhere.to_vector() == std::vector<float>(4, -1));
}

XP_LINALG_CASE("matmul and dot: shape and device errors name the shapes and dims", errors) {
  const auto a = xp::ones<float>({2, 3}, device);
  CHECK_THROWS_WITH_AS(xp::matmul(a, xp::ones<float>({4, 5}, device)),
                       "matmul: shapes (2,3) and (4,5) are not aligned: 3 (dim 1) != 4 (dim 0)", xp::ValueError);
  CHECK_THROWS_WITH_AS(xp::dot(xp::ones<float>({2, 3, 4}, device), xp::ones<float>({5, 3, 6}, device)),
                       "dot: shapes (2,3,4) and (5,3,6) are not aligned: 4 (dim 2) != 3 (dim 1)", xp::ValueError);
  CHECK_THROWS_WITH_AS(xp::matmul(xp::ones<float>({3}, device), xp::ones<float>({4}, device)),
                       "matmul: shapes (3,) and (4,) are not aligned: 3 (dim 0) != 4 (dim 0)", xp::ValueError);
  CHECK_THROWS_WITH_AS(xp::matmul(xp::ones<float>({2, 2, 3}, device), xp::ones<float>({5, 3, 1}, device)),
                       "matmul: shapes (2,2,3) and (5,3,1) do not broadcast: their batch dimensions (2,) and (5,) "
                       "differ at 2 (dim 0) and 5 (dim 0)",
                       xp::ValueError);
  CHECK_THROWS_WITH_AS(xp::matmul(xp::ndarray<float>(xp::full<float>({}, 2, device)), a),
                       "matmul: operand 0 is 0-d (shape ()); matmul takes arrays of one or more dimensions "
                       "(multiply scales by a scalar)",
                       xp::ValueError);
  const xp::Device other = device == xp::cpu(1) ? xp::cpu(0) : xp::cpu(1);
  CHECK_THROWS_WITH_AS(xp::matmul(a, xp::ones<float>({3, 2}, other)), doctest::Contains("matmul: argument 0 is on"),
                       xp::DeviceMismatchError);
}

TEST_CASE("matmul plan: transpose flags and leading dimensions, no copies for transposed views") {
  using xp::detail::blas_matrix;
  // Row-major (ld = row stride), stored transposed (ld = column stride), unit extents, and layouts
  // BLAS cannot take.
  CHECK(blas_matrix(2, 3, {3, 1})->transposed == false);
  CHECK(blas_matrix(2, 3, {5, 1})->ld == 5);
  CHECK(blas_matrix(2, 3, {1, 2})->transposed == true);
  CHECK(blas_matrix(2, 3, {1, 4})->ld == 4);
  CHECK(blas_matrix(1, 3, {0, 1})->ld == 3);
  CHECK(blas_matrix(3, 1, {1, 0})->ld == 1);
  CHECK_FALSE(blas_matrix(2, 3, {6, 2}));
  CHECK_FALSE(blas_matrix(2, 3, {0, 1}));
  CHECK_FALSE(blas_matrix(2, 3, {-3, 1}));
  CHECK_FALSE(blas_matrix(2, 3, {2, 1}));  // rows overlap
  // A stack of 4 transposed 3x2 matrices: one strided batch, no copy.
  const xp::Shape shape{4, 2, 3};
  xp::detail::GemmLayout layout;
  xp::detail::matmul_layout(shape, xp::Strides{6, 1, 2}, xp::Shape{3, 5}, xp::Strides{5, 1}, xp::Strides{10, 5, 1},
                            layout);
  CHECK(layout.batch.ndim == 1);
  CHECK(layout.batch.b[0] == 0);
  CHECK(blas_matrix(layout.m, layout.k, layout.a)->transposed);
  // Broadcast batch axes that no single stride walks stay two axes (pointer arrays on GPUs).
  xp::detail::GemmLayout crossed;
  xp::detail::matmul_layout(xp::Shape{2, 1, 3, 3}, xp::Strides{9, 9, 3, 1}, xp::Shape{4, 3, 3}, xp::Strides{9, 3, 1},
                            xp::Strides{36, 9, 3, 1}, crossed);
  CHECK(crossed.batch.ndim == 2);
  CHECK(crossed.batch.count() == 8);
}

TEST_CASE("matmul: 4 threads x 200 products on cpu(0..3) at once equal a serial run") {
  // OpenBLAS's OpenMP build, called from several threads at once, must give each its exact result.
  constexpr int kThreads = 4, kProducts = 200;
  std::vector<std::vector<xp::ndarray<float>>> lefts(kThreads), rights(kThreads);
  std::vector<std::vector<std::vector<float>>> expected(kThreads), got(kThreads);
  // OpenBLAS's threaded path (256^3), its single-threaded one (a transposed B of 96^3, which the
  // library's own small-product loop does not take) and that loop (96^3), mixed.
  for (int t = 0; t < kThreads; ++t) {
    for (int i = 0; i < kProducts; ++i) {
      const std::int64_t n = i % 10 == 0 ? 256 : 96;
      const xp::Device device = xp::cpu(t);
      lefts[t].push_back(xp::random::uniform<float>(-1, 1, {n, n}, device));
      const auto right = xp::random::uniform<float>(-1, 1, {n, n}, device);
      rights[t].push_back(i % 2 ? right.transpose() : right);
      expected[t].push_back(xp::matmul(lefts[t][i], rights[t][i]).to_vector());
    }
  }
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&, t] {
      for (int i = 0; i < kProducts; ++i) got[t].push_back(xp::matmul(lefts[t][i], rights[t][i]).to_vector());
    });
  for (auto& thread : threads) thread.join();
  for (int t = 0; t < kThreads; ++t)
    for (int i = 0; i < kProducts; ++i) REQUIRE(got[t][i] == expected[t][i]);
}

XP_GPU_TEST_CASE("matmul: 4 threads x 50 products on gpu(0), each on its own stream, equal a serial run") {
  // One cuBLAS handle per thread, each set to its thread's stream with that stream's workspace.
  constexpr int kThreads = 4, kProducts = 50;
  std::vector<std::vector<xp::ndarray<float>>> lefts(kThreads), rights(kThreads);
  std::vector<std::vector<std::vector<float>>> expected(kThreads), got(kThreads);
  for (int t = 0; t < kThreads; ++t)
    for (int i = 0; i < kProducts; ++i) {
      const std::int64_t n = i % 10 == 0 ? 512 : 96;
      lefts[t].push_back(xp::random::uniform<float>(-1, 1, {3, n, n}, xp::gpu(0)));
      rights[t].push_back(xp::random::uniform<float>(-1, 1, {n, n}, xp::gpu(0)));
      expected[t].push_back(xp::matmul(lefts[t][i], rights[t][i]).to_vector());
    }
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&, t] {
      const xp::StreamScope scope(xp::Stream(xp::gpu(0)));
      for (int i = 0; i < kProducts; ++i) got[t].push_back(xp::matmul(lefts[t][i], rights[t][i]).to_vector());
    });
  for (auto& thread : threads) thread.join();
  for (int t = 0; t < kThreads; ++t)
    for (int i = 0; i < kProducts; ++i) REQUIRE(got[t][i] == expected[t][i]);
}
