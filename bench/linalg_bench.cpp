// The solvers and einsum at the sizes: solve of a 1024 x 1024 float64 matrix (a vector b), svd
// of 512 x 512 float64 (full_matrices, as NumPy's default), eigh of 4096 stacked 8 x 8 float32 matrices,
// and einsum "bij,bjk->bik" beside the matmul of the same batch (64 of 128 x 128 float32). Prints the
// thread counts on a `# threads` line, then one line per measurement: name, elements, seconds per call.
#include <omp.h>
#include <xp/xp.hpp>

#include <cstdio>
#include <string>
#include <vector>

#include "timing.hpp"

namespace {

// Normal values plus n on the diagonal: well conditioned, as a solver's benchmark input should be.
xp::ndarray<> conditioned(xp::random::Generator& g, const xp::Shape& shape, xp::dtype type) {
  const std::int64_t n = shape[shape.ndim() - 1];
  return xp::ndarray<>(xp::add(g.standard_normal<double>(shape), xp::eye<double>(n) * static_cast<double>(n)))
      .astype(type);
}

template <class F>
bench::Measurement measured(std::string name, std::int64_t n, int calls, F f) {
  return {std::move(name), n, 0.0, calls, [=] { bench::escape(f().raw_data()); }, {}};
}

}  // namespace

int main(int argc, char** argv) {
  const int rounds = bench::rounds_from(argc, argv, 7);
  xp::random::Generator g(1);
  const xp::ndarray<> a = conditioned(g, {1024, 1024}, xp::dtype::float64), b = g.standard_normal<double>({1024});
  const xp::ndarray<> square = conditioned(g, {512, 512}, xp::dtype::float64);
  const xp::ndarray<> small = xp::ndarray<>(conditioned(g, {4096, 8, 8}, xp::dtype::float32));
  const xp::ndarray<> symmetric = xp::add(small, xp::swapaxes(small, -1, -2));
  const xp::ndarray<> left = g.standard_normal<float>({64, 128, 128}), right = g.standard_normal<float>({64, 128, 128});
  std::vector<bench::Measurement> measurements;
  measurements.push_back(measured("xp_solve_1024_float64", 1024, 2, [=] { return xp::linalg::solve(a, b); }));
  measurements.push_back(measured("xp_svd_512_float64", 512, 1, [=] { return xp::linalg::svd(square).S; }));
  measurements.push_back(
      measured("xp_eigh_4096x8x8_float32", 4096, 4, [=] { return xp::linalg::eigh(symmetric).eigenvalues; }));
  measurements.push_back(
      measured("xp_einsum_bij_bjk_float32", 64, 4, [=] { return xp::einsum("bij,bjk->bik", left, right); }));
  measurements.push_back(measured("xp_matmul_bij_bjk_float32", 64, 4, [=] { return xp::matmul(left, right); }));
  std::printf("# threads xparray %d\n", omp_get_max_threads());
  bench::run_and_print(measurements, rounds);
}
