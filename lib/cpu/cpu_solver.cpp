// Dense factorizations on CPUs: LAPACK from the OpenBLAS the library links (lib/cpu/lapack.hpp), one
// call per matrix of a batch. Small matrices run one per thread, each call on its thread alone (OpenBLAS
// runs single-threaded inside a parallel region); large ones one after another, each on OpenBLAS's threads.
#include "cpu/cpu_solver.hpp"

#include <climits>
#include <cmath>
#include <vector>

#include "cpu/lapack.hpp"
#include "xp/error.hpp"
#include "xp/kernels/cpu/parallel_for.hpp"

namespace xp::detail {

namespace {

template <class T>
using Real = decltype(std::abs(T{}));

int lapack_int(std::int64_t value) {
  XP_CHECK(value <= INT_MAX, ValueError, "linalg: extent ", value, " exceeds the 32-bit integers of LAPACK");
  return static_cast<int>(value);
}

// Work arrays reused over the matrices a thread factors: they only grow.
template <class T>
struct Scratch {
  std::vector<T> work;
  std::vector<Real<T>> real_work;
  std::vector<int> int_work;
  template <class V>
  static auto* sized(std::vector<V>& v, std::int64_t n) {
    if (v.size() < static_cast<std::size_t>(n)) v.resize(static_cast<std::size_t>(n));
    return v.data();
  }
};

// The workspace size a query (lwork = -1) wrote, as LAPACK returns it: a float, rounded up.
template <class T>
int queried(T size) {
  return static_cast<int>(std::ceil(static_cast<double>(std::real(size)) * (1 + 1e-7)));
}

template <class T>
T* matrix(void* base, std::int64_t index, std::int64_t elements) {
  return static_cast<T*>(base) + index * elements;
}

template <class T>
void lu(const SolverCall& call, std::int64_t i, Scratch<T>& scratch) {
  const int n = lapack_int(call.n), columns = lapack_int(call.columns);
  T* a = matrix<T>(call.a, i, call.n * call.n);
  int* pivots = Scratch<T>::sized(scratch.int_work, call.n);
  std::int64_t* saved = call.pivots + i * call.n;
  int info = 0;
  if (call.routine == SolverRoutine::lu_factor) {
    lapack::getrf(&n, &n, a, &n, pivots, &info);
    for (int k = 0; k < n; ++k) saved[k] = pivots[k];
  } else {
    for (int k = 0; k < n; ++k) pivots[k] = static_cast<int>(saved[k]);
    lapack::getrs(&n, &columns, a, &n, pivots, matrix<T>(call.b, i, call.n * call.columns), &n, &info);
  }
  call.info[i] = info;
}

template <class T>
void qr(const SolverCall& call, std::int64_t i, Scratch<T>& scratch) {
  const int rows = lapack_int(call.rows), n = lapack_int(call.n), query = -1;
  const std::int64_t k = std::min(call.rows, call.n);
  T* tau = matrix<T>(call.tau, i, k);
  T size{};
  int info = 0;
  if (call.routine == SolverRoutine::qr_factor) {
    T* a = matrix<T>(call.a, i, call.rows * call.n);
    lapack::geqrf(&rows, &n, a, &rows, tau, &size, &query, &info);
    const int lwork = queried(size);
    lapack::geqrf(&rows, &n, a, &rows, tau, Scratch<T>::sized(scratch.work, lwork), &lwork, &info);
  } else {
    const int columns = lapack_int(call.columns), reflectors = lapack_int(call.reflectors);
    T* a = matrix<T>(call.a, i, call.rows * call.columns);
    lapack::orgqr(&rows, &columns, &reflectors, a, &rows, tau, &size, &query, &info);
    const int lwork = queried(size);
    lapack::orgqr(&rows, &columns, &reflectors, a, &rows, tau, Scratch<T>::sized(scratch.work, lwork), &lwork, &info);
  }
  call.info[i] = info;
}

// gesdd, queried for its workspace first: a is m x n with m >= n.
template <class T>
void gesdd(const char* jobz, int m, int n, T* a, Real<T>* s, T* u, int ldu, T* vt, int ldvt, Scratch<T>& scratch,
           int* info) {
  int* iwork = Scratch<T>::sized(scratch.int_work, 8 * std::int64_t{n});
  // The real work array of the complex routines, as LAPACK's documentation sizes it.
  const std::int64_t real_size = std::is_floating_point_v<T> ? 1
                                 : *jobz == 'N'              ? 7 * std::int64_t{n}
                                                             : n * std::int64_t{std::max(5 * n + 7, 2 * m + 2 * n + 1)};
  Real<T>* real_work = Scratch<T>::sized(scratch.real_work, real_size);
  T size{};
  int lwork = -1;
  lapack::gesdd(jobz, &m, &n, a, s, u, &ldu, vt, &ldvt, &size, &lwork, real_work, iwork, info);
  lwork = queried(size);
  lapack::gesdd(jobz, &m, &n, a, s, u, &ldu, vt, &ldvt, Scratch<T>::sized(scratch.work, lwork), &lwork, real_work,
                iwork, info);
}

template <class T>
void svd(const SolverCall& call, std::int64_t i, Scratch<T>& scratch) {
  const int rows = lapack_int(call.rows), n = lapack_int(call.n);
  const bool complete = call.vectors == SingularVectors::complete, none = call.vectors == SingularVectors::none;
  const std::int64_t u_columns = complete ? call.rows : call.n;
  T* u = none ? nullptr : matrix<T>(call.u, i, call.rows * u_columns);
  T* vt = none ? nullptr : matrix<T>(call.vt, i, call.n * call.n);
  T unused{};
  gesdd<T>(none       ? "N"
           : complete ? "A"
                      : "S",
           rows, n, matrix<T>(call.a, i, call.rows * call.n), matrix<Real<T>>(call.values, i, call.n),
           none ? &unused : u, none ? 1 : rows, none ? &unused : vt, none ? 1 : n, scratch, &call.info[i]);
}

template <class T>
void eigh(const SolverCall& call, std::int64_t i, Scratch<T>& scratch) {
  const int n = lapack_int(call.n);
  const char* jobz = call.vectors == SingularVectors::none ? "N" : "V";
  const char* uplo = call.upper ? "U" : "L";
  T* a = matrix<T>(call.a, i, call.n * call.n);
  Real<T>* w = matrix<Real<T>>(call.values, i, call.n);
  T size{};
  Real<T> real_size{};
  int lwork = -1, real_lwork = -1, liwork = -1, int_size = 0;
  lapack::evd(jobz, uplo, &n, a, w, &size, &lwork, &real_size, &real_lwork, &int_size, &liwork, &call.info[i]);
  lwork = queried(size), real_lwork = std::max(1, queried(real_size)), liwork = std::max(1, int_size);
  lapack::evd(jobz, uplo, &n, a, w, Scratch<T>::sized(scratch.work, lwork), &lwork,
              Scratch<T>::sized(scratch.real_work, real_lwork), &real_lwork,
              Scratch<T>::sized(scratch.int_work, liwork), &liwork, &call.info[i]);
}

template <class T>
void factor(const SolverCall& call, std::int64_t i, Scratch<T>& scratch) {
  switch (call.routine) {
    case SolverRoutine::lu_factor:
    case SolverRoutine::lu_solve: return lu<T>(call, i, scratch);
    case SolverRoutine::cholesky: {
      const int n = lapack_int(call.n);
      return lapack::potrf_lower(&n, matrix<T>(call.a, i, call.n * call.n), &n, &call.info[i]);
    }
    case SolverRoutine::qr_factor:
    case SolverRoutine::qr_q: return qr<T>(call, i, scratch);
    case SolverRoutine::svd: return svd<T>(call, i, scratch);
    case SolverRoutine::eigh: return eigh<T>(call, i, scratch);
  }
}

template <class T>
void factor_range(const SolverCall& call, std::int64_t begin, std::int64_t end) {
  Scratch<T> scratch;
  for (std::int64_t i = begin; i < end; ++i) factor<T>(call, i, scratch);
}

// Matrices up to this extent are factored one per thread.
constexpr std::int64_t kPerThreadExtent = 64;

template <class T>
void factor_batch(const SolverCall& call) {
  const std::int64_t extent = std::max(call.rows, call.n);
  if (call.batch == 1 || extent > kPerThreadExtent) return factor_range<T>(call, 0, call.batch);
  parallel_for(
      call.batch, std::max<std::int64_t>(1, kParallelGrain * 4 / (extent * extent * extent)),
      [](void* context, std::int64_t begin, std::int64_t end) {
        factor_range<T>(*static_cast<const SolverCall*>(context), begin, end);
      },
      const_cast<SolverCall*>(&call));
}

}  // namespace

void cpu_solver(const SolverCall& call) {
  switch (call.type) {
    case xp::dtype::float32: return factor_batch<float>(call);
    case xp::dtype::float64: return factor_batch<double>(call);
    case xp::dtype::complex64: return factor_batch<lapack::c32>(call);
    case xp::dtype::complex128: return factor_batch<lapack::c64>(call);
    default: throw TypeError("linalg: LAPACK has no routines for ", call.type);
  }
}

}  // namespace xp::detail
