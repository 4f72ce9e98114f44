#pragma once
// A batch of dense factorizations as a backend receives it (LAPACK on CPUs, cuSOLVER on GPUs): every
// matrix column-major (LAPACK's order) and contiguous, the batch's matrices one after another, outputs
// allocated by the caller on the same device. The routines are LAPACK's, one per value of SolverRoutine.
#include <cstdint>

#include "xp/dtype.hpp"
#include "xp/memory_pool.hpp"

namespace xp::detail {

enum class SolverRoutine : std::uint8_t {
  lu_factor,  // getrf: a (n x n) -> L and U in place, pivots (1-based, LAPACK's)
  lu_solve,  // getrs: b (n x columns) -> a^-1 b in place, a and pivots from lu_factor
  cholesky,  // potrf, lower: a (n x n) -> L in its lower triangle (the upper one left as it was)
  qr_factor,  // geqrf: a (rows x n) -> R and the reflectors in place, tau (min(rows, n))
  qr_q,  // orgqr / ungqr: a (rows x columns, the first `reflectors` columns from qr_factor) -> Q
  svd,  // gesdd (CPUs), gesvd (GPUs), rows >= n: a destroyed, s, and u, vt as `vectors` says
  eigh,  // syevd / heevd: a (n x n, the triangle `upper` says) -> eigenvectors if `vectors`, w ascending
};

// What svd computes of U and V^H.
enum class SingularVectors : std::uint8_t { none, reduced, complete };

struct SolverCall {
  SolverRoutine routine;
  xp::dtype type;  // float32, float64, complex64 or complex128: of a, b, tau, u, vt; s and w are real
  std::int64_t batch = 1;  // matrices of each operand, one after another
  std::int64_t rows = 0, n = 0;  // a's extents (rows == n but for qr and svd)
  void* a = nullptr;
  void* b = nullptr;  // lu_solve's right-hand sides (n x columns)
  std::int64_t columns = 0;  // lu_solve: b's columns; qr_q: Q's columns
  std::int64_t reflectors = 0;  // qr_q: how many of a's columns hold reflectors (<= columns)
  std::int64_t* pivots = nullptr;  // lu: batch x n
  void* tau = nullptr;  // qr: batch x min(rows, n) of type
  void* values = nullptr;  // svd: s, batch x n; eigh: w, batch x n (the real type of `type`)
  void* u = nullptr;  // svd: batch x (rows x n or rows x rows)
  void* vt = nullptr;  // svd: batch x (n x n)
  SingularVectors vectors = SingularVectors::none;  // svd; eigh: anything but none computes them
  bool upper = false;  // eigh: which triangle of a holds the matrix
  // One status a matrix, LAPACK's info: > 0 where the factorization failed (singular, not positive
  // definite, no convergence). In the device's memory; the caller reads it once per call.
  std::int32_t* info = nullptr;
  MemoryPool* pool = nullptr;  // the device's, for workspace
};

}  // namespace xp::detail
