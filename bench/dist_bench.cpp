// Allreduce across processes (run under mpirun, 2 processes on this machine's loopback):
//  1. bus bandwidth (nccl-tests' busbw = bytes / time * 2 (P - 1) / P) of xp::dist::allreduce on one
//     float32 array from 1 KiB to 256 MiB, beside OpenMPI's own MPI_Allreduce on the same buffer;
//  2. the gradients of the 64-512-512-10 MLP (six arrays, 1.2 MB) through xp::dist::allreduce (one bucket:
//     packed when the arrays are apart, in place when they lie back to back) beside one MPI_Allreduce
//     of the same bytes in one buffer.
// Each figure is the median of 5 alternating rounds; rank 0 prints.
#include <mpi.h>

#include <cstdio>
#include <functional>
#include <vector>

#include "timing.hpp"
#include "xp/creation.hpp"
#include "xp/dist.hpp"
#include "xp/index.hpp"

namespace {

// Calls per round so that a round takes about 0.1 s at `estimate` seconds a call.
int calls_for(double estimate) { return std::max(3, static_cast<int>(0.1 / std::max(estimate, 1e-7))); }

// Median seconds per call of each function over alternating rounds (every rank runs the same calls).
std::vector<double> alternate(const std::vector<std::function<void()>>& functions) {
  std::vector<std::vector<double>> rounds(functions.size());
  for (const auto& f : functions) f();  // warm up
  std::vector<int> calls;
  for (const auto& f : functions) calls.push_back(calls_for(bench::seconds_per_call(3, f)));
  // Every rank must run the same number of calls: take rank 0's.
  MPI_Bcast(calls.data(), static_cast<int>(calls.size()), MPI_INT, 0, MPI_COMM_WORLD);
  for (int round = 0; round < 5; ++round)
    for (std::size_t i = 0; i < functions.size(); ++i) {
      MPI_Barrier(MPI_COMM_WORLD);
      rounds[i].push_back(bench::seconds_per_call(calls[i], functions[i]));
    }
  std::vector<double> out;
  for (auto& r : rounds) out.push_back(bench::median(r));
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  xp::dist::init(argc, argv);
  const int rank = xp::dist::rank(), size = xp::dist::size();
  const double bus_factor = 2.0 * (size - 1) / size;
  if (rank == 0) {
    std::printf("# allreduce over %d processes (float32, sum, in place); bus bandwidth in GB/s\n", size);
    std::printf("%12s %14s %14s %8s\n", "bytes", "xp::dist", "MPI_Allreduce", "ratio");
  }
  for (std::int64_t bytes = 1 << 10; bytes <= std::int64_t{256} << 20; bytes *= 4) {
    auto a = xp::ones<float>({bytes / 4}, xp::cpu(0));
    float* data = a.data();
    const int count = static_cast<int>(bytes / 4);
    const auto t = alternate({[&] { xp::dist::allreduce({a}); },
                              [&] { MPI_Allreduce(MPI_IN_PLACE, data, count, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD); }});
    if (rank == 0)
      std::printf("%12lld %14.3f %14.3f %8.3f\n", static_cast<long long>(bytes),
                  static_cast<double>(bytes) / t[0] * bus_factor * 1e-9,
                  static_cast<double>(bytes) / t[1] * bus_factor * 1e-9, t[1] / t[0]);
  }

  // The MLP's gradients: apart (six allocations) and back to back (views of one buffer).
  const std::vector<xp::Shape> shapes{{512, 64}, {512}, {512, 512}, {512}, {10, 512}, {10}};
  std::int64_t total = 0;
  std::vector<xp::ndarray<>> apart, together;
  for (const auto& s : shapes) {
    apart.push_back(xp::ones<float>(s, xp::cpu(0)));
    total += static_cast<std::int64_t>(apart.back().size());
  }
  auto flat = xp::ones<float>({total}, xp::cpu(0));
  std::int64_t at = 0;
  for (const auto& s : shapes) {
    const xp::ndarray<> view = flat(xp::slice(at, at + static_cast<std::int64_t>(apart[together.size()].size())));
    together.push_back(view.reshape(s));
    at += static_cast<std::int64_t>(apart[together.size() - 1].size());
  }
  auto fused = xp::ones<float>({total}, xp::cpu(0));
  float* fused_data = fused.data();
  const auto t = alternate(
      {[&] { xp::dist::allreduce(apart); }, [&] { xp::dist::allreduce(together); },
       [&] { MPI_Allreduce(MPI_IN_PLACE, fused_data, static_cast<int>(total), MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD); }});
  if (rank == 0) {
    std::printf("\n# the MLP's gradients (%lld float32 in 6 arrays): microseconds\n", static_cast<long long>(total));
    std::printf("xp::dist, arrays apart (packed)     %10.1f   fused MPI_Allreduce / this = %.3f\n", t[0] * 1e6,
                t[2] / t[0]);
    std::printf("xp::dist, arrays back to back       %10.1f   fused MPI_Allreduce / this = %.3f\n", t[1] * 1e6,
                t[2] / t[1]);
    std::printf("one MPI_Allreduce of the same bytes %10.1f\n", t[2] * 1e6);
    std::printf("target: arrays back to back >= 0.9x one fused MPI_Allreduce: %s\n",
                t[2] / t[1] >= 0.9 ? "met" : "MISSED");
  }
  xp::dist::finalize();
}
