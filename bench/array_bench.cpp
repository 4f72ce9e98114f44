// Array-math bandwidth on the CPU: xp's elementwise transform and reductions against the ceiling
// (STREAM-like copy and add written with OpenMP), a hand-written OpenMP sum, and Eigen, interleaved
// round-robin in one process (the VM's bandwidth jumps between levels within seconds: only figures
// measured together compare). Also the latency of one small xp::add, and of an NVTX range that is
// off. The elementwise and sum rows also run on one thread (`_1thread`), beside the single-threaded peers.
// Prints the thread counts on a `# threads` line, then one line per measurement: name, elements,
// seconds per call (median), GB/s.
#include <omp.h>
#include <Eigen/Core>
#include <xp/xp.hpp>

#include <algorithm>
#include <array>
#include <complex>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "timing.hpp"

namespace {

[[gnu::noinline]] void stream_copy(const float* __restrict a, float* __restrict c, std::int64_t n) {
#pragma omp parallel for simd schedule(static)
  for (std::int64_t i = 0; i < n; ++i) c[i] = a[i];
}

[[gnu::noinline]] void stream_add(const float* __restrict a, const float* __restrict b, float* __restrict c,
                                  std::int64_t n) {
#pragma omp parallel for simd schedule(static)
  for (std::int64_t i = 0; i < n; ++i) c[i] = a[i] + b[i];
}

[[gnu::noinline]] float openmp_sum(const float* __restrict a, std::int64_t n) {
  float total = 0;
#pragma omp parallel for simd schedule(static) reduction(+ : total)
  for (std::int64_t i = 0; i < n; ++i) total += a[i];
  return total;
}

struct SquaredDifference {
  float operator()(float x, float y) const { return (x - y) * (x - y); }
};

// d = x - y; r = d * d, with the library's subtract and multiply into arrays of T made beforehand.
template <class T>
void add_squared_difference_ops(std::vector<bench::Measurement>& measurements, const xp::ndarray<float>& x,
                                const xp::ndarray<float>& y, int calls) {
  const auto tx = x.astype<T>(), ty = y.astype<T>(), d = xp::zeros<T>(x.shape()), r = xp::zeros<T>(x.shape());
  const std::int64_t n = x.size();
  measurements.push_back({"xp_sqdiff_ops_" + std::string(xp::dtype_name(xp::dtype_of<T>)),
                          n,
                          6.0 * static_cast<double>(n) * sizeof(T),
                          calls,
                          [=] {
                            xp::subtract(tx, ty, d);
                            xp::multiply(d, d, r);
                            bench::escape(r.data());
                          },
                          {}});
}

// f on one OpenMP thread (the library's loops take the calling thread's count), for the rows beside
// single-threaded peers (NumPy's elementwise and reductions, Eigen's coefficient-wise expressions).
template <class F>
std::function<void()> on_one_thread(F f) {
  return [f] {
    const int threads = omp_get_max_threads();
    omp_set_num_threads(1);
    f();
    omp_set_num_threads(threads);
  };
}

}  // namespace

int main(int argc, char** argv) {
  const int rounds = bench::rounds_from(argc, argv, 11);

  std::vector<bench::Measurement> measurements;
  std::vector<xp::ndarray<float>> keep;  // the arrays the measurements use
  // The table reads 2^20 and 2^24; the sizes between and below are for the bandwidth-vs-size chart.
  for (const int log2_n : {14, 16, 18, 20, 22, 24}) {
    const std::int64_t n = std::int64_t(1) << log2_n;
    xp::random::seed(1);
    const auto x = xp::random::uniform<float>(0, 1, {n});
    const auto y = xp::random::uniform<float>(0, 1, {n});
    const auto z = xp::zeros<float>({n});
    keep.insert(keep.end(), {x, y, z});
    const int calls =
        static_cast<int>(std::max<std::int64_t>(4, (std::int64_t(1) << 26) / n));  // ~2^26 elements a sample
    const double f = static_cast<double>(n) * sizeof(float);
    const float *px = x.data(), *py = y.data();
    float* pz = z.data();
    measurements.push_back({"stream_copy",
                            n,
                            2 * f,
                            calls,
                            [=] {
                              stream_copy(px, pz, n);
                              bench::escape(pz);
                            },
                            {}});
    measurements.push_back({"stream_add",
                            n,
                            3 * f,
                            calls,
                            [=] {
                              stream_add(px, py, pz, n);
                              bench::escape(pz);
                            },
                            {}});
    // complex64 products of n / 2 elements: the same bytes as stream_add's n floats, into an existing array.
    const auto i = std::complex<float>(0, 1);
    const auto cx = xp::random::uniform<float>(0, 1, {n / 2}).astype<std::complex<float>>() +
                    xp::random::uniform<float>(0, 1, {n / 2}) * i;
    const auto cy = xp::random::uniform<float>(0, 1, {n / 2}).astype<std::complex<float>>() +
                    xp::random::uniform<float>(0, 1, {n / 2}) * i;
    const auto cz = xp::zeros<std::complex<float>>({n / 2});
    measurements.push_back({"xp_multiply_complex64",
                            n,
                            3 * f,
                            calls,
                            [=] {
                              xp::multiply(cx, cy, cz);
                              bench::escape(cz.data());
                            },
                            {}});
    // (x-y)^2 as two built-in operations into existing arrays, in float32 and in float16 (the same
    // elements, half the bytes): six arrays of n elements move per call.
    add_squared_difference_ops<float>(measurements, x, y, calls);
    add_squared_difference_ops<xp::float16>(measurements, x, y, calls);
    measurements.push_back({"xp_transform_sqdiff",
                            n,
                            3 * f,
                            calls,
                            [=] {
                              const auto r = xp::transform(SquaredDifference{}, x, y);
                              bench::escape(r.data());
                            },
                            {}});
    measurements.push_back({"xp_transform_sqdiff_1thread",
                            n,
                            3 * f,
                            calls,
                            on_one_thread([=] {
                              const auto r = xp::transform(SquaredDifference{}, x, y);
                              bench::escape(r.data());
                            }),
                            {}});
    measurements.push_back({"eigen_sqdiff",
                            n,
                            3 * f,
                            calls,
                            [=] {
                              Eigen::Map<const Eigen::ArrayXf> ex(px, n), ey(py, n);
                              Eigen::Map<Eigen::ArrayXf> ez(pz, n);
                              ez = (ex - ey).square();
                              bench::escape(pz);
                            },
                            {}});
    measurements.push_back({"openmp_sum",
                            n,
                            f,
                            calls,
                            [=] {
                              volatile float s = openmp_sum(px, n);
                              (void)s;
                            },
                            {}});
    measurements.push_back({"xp_sum",
                            n,
                            f,
                            calls,
                            [=] {
                              const auto s = xp::sum(x);
                              bench::escape(s.data());
                            },
                            {}});
    measurements.push_back({"xp_sum_1thread",
                            n,
                            f,
                            calls,
                            on_one_thread([=] {
                              const auto s = xp::sum(x);
                              bench::escape(s.data());
                            }),
                            {}});
    measurements.push_back({"eigen_sum",
                            n,
                            f,
                            calls,
                            [=] {
                              volatile float s = Eigen::Map<const Eigen::ArrayXf>(px, n).sum();
                              (void)s;
                            },
                            {}});
  }
  const auto m = keep.back().reshape({4096, 4096});  // the 2^24 z, refilled
  keep.push_back(xp::random::uniform<float>(0, 1, {4096, 4096}));
  const auto matrix = keep.back();
  const double mb = 4096.0 * 4096 * sizeof(float);
  measurements.push_back(
      {"xp_sum_all_4096x4096", 4096 * 4096, mb, 4, [=] { bench::escape(xp::sum(matrix).data()); }, {}});
  measurements.push_back(
      {"xp_sum_axis1_4096x4096", 4096 * 4096, mb, 4, [=] { bench::escape(xp::sum(matrix, 1).data()); }, {}});
  measurements.push_back(
      {"xp_sum_axis0_4096x4096", 4096 * 4096, mb, 4, [=] { bench::escape(xp::sum(matrix, 0).data()); }, {}});
  (void)m;

  const auto a = xp::ones<float>({8}), b = xp::ones<float>({8}), out = xp::zeros<float>({8});
  measurements.push_back({"xp_add_out_n8", 8, 0, 20000, [=] { xp::add(a, b, out); }, {}});
  // The same call beneath autograd's entry (what xp::add was before autograd), and while recording.
  measurements.push_back({"api_add_out_n8",
                          8,
                          0,
                          20000,
                          [=] {
                            const std::array<xp::detail::Operand, 2> operands{xp::detail::to_operand(a),
                                                                              xp::detail::to_operand(b)};
                            xp::detail::elementwise(xp::detail::ElementwiseOp::add, operands, out);
                          },
                          {}});
  measurements.push_back({"xp_add_out_n8_recording",
                          8,
                          0,
                          20000,
                          [=] {
                            const bool previous = xp::autograd::set_recording(true);
                            xp::add(a, b, out);
                            xp::autograd::set_recording(previous);
                          },
                          {}});

  // An NVTX range while XP_NVTX is not 1, what every operation pays: 1000 per call, the flag reloaded
  // each time as it is in separate calls.
  measurements.push_back({"profile_range_off_x1000",
                          1000,
                          0,
                          2000,
                          [] {
                            for (int i = 0; i < 1000; ++i) {
                              const xp::profile_range range("add");
                              asm volatile("" : : : "memory");
                            }
                          },
                          {}});

  // Thread counts, for the table: OpenMP's for xparray's loops and the STREAM-like ones; Eigen's
  // coefficient-wise expressions and sums run on the calling thread (Eigen threads only its products).
  std::printf("# threads xparray %d stream %d eigen 1\n", omp_get_max_threads(), omp_get_max_threads());
  bench::run_and_print(measurements, rounds);
}
