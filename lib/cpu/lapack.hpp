#pragma once
// LAPACK's Fortran routines as OpenBLAS exports them (its LP64 build: 32-bit integers), one overload
// set per routine over float, double and their complex types. Character arguments carry their hidden
// lengths (gfortran's convention, after all others), so that no routine reads a length it was not given.
#include <complex>
#include <cstddef>

namespace xp::detail::lapack {

using c32 = std::complex<float>;
using c64 = std::complex<double>;
using Length = std::size_t;

extern "C" {
void sgetrf_(const int* m, const int* n, float* a, const int* lda, int* ipiv, int* info);
void dgetrf_(const int* m, const int* n, double* a, const int* lda, int* ipiv, int* info);
void cgetrf_(const int* m, const int* n, c32* a, const int* lda, int* ipiv, int* info);
void zgetrf_(const int* m, const int* n, c64* a, const int* lda, int* ipiv, int* info);
void sgetrs_(const char* trans, const int* n, const int* nrhs, const float* a, const int* lda, const int* ipiv,
             float* b, const int* ldb, int* info, Length);
void dgetrs_(const char* trans, const int* n, const int* nrhs, const double* a, const int* lda, const int* ipiv,
             double* b, const int* ldb, int* info, Length);
void cgetrs_(const char* trans, const int* n, const int* nrhs, const c32* a, const int* lda, const int* ipiv, c32* b,
             const int* ldb, int* info, Length);
void zgetrs_(const char* trans, const int* n, const int* nrhs, const c64* a, const int* lda, const int* ipiv, c64* b,
             const int* ldb, int* info, Length);
void spotrf_(const char* uplo, const int* n, float* a, const int* lda, int* info, Length);
void dpotrf_(const char* uplo, const int* n, double* a, const int* lda, int* info, Length);
void cpotrf_(const char* uplo, const int* n, c32* a, const int* lda, int* info, Length);
void zpotrf_(const char* uplo, const int* n, c64* a, const int* lda, int* info, Length);
void sgeqrf_(const int* m, const int* n, float* a, const int* lda, float* tau, float* work, const int* lwork,
             int* info);
void dgeqrf_(const int* m, const int* n, double* a, const int* lda, double* tau, double* work, const int* lwork,
             int* info);
void cgeqrf_(const int* m, const int* n, c32* a, const int* lda, c32* tau, c32* work, const int* lwork, int* info);
void zgeqrf_(const int* m, const int* n, c64* a, const int* lda, c64* tau, c64* work, const int* lwork, int* info);
void sorgqr_(const int* m, const int* n, const int* k, float* a, const int* lda, const float* tau, float* work,
             const int* lwork, int* info);
void dorgqr_(const int* m, const int* n, const int* k, double* a, const int* lda, const double* tau, double* work,
             const int* lwork, int* info);
void cungqr_(const int* m, const int* n, const int* k, c32* a, const int* lda, const c32* tau, c32* work,
             const int* lwork, int* info);
void zungqr_(const int* m, const int* n, const int* k, c64* a, const int* lda, const c64* tau, c64* work,
             const int* lwork, int* info);
void sgesdd_(const char* jobz, const int* m, const int* n, float* a, const int* lda, float* s, float* u, const int* ldu,
             float* vt, const int* ldvt, float* work, const int* lwork, int* iwork, int* info, Length);
void dgesdd_(const char* jobz, const int* m, const int* n, double* a, const int* lda, double* s, double* u,
             const int* ldu, double* vt, const int* ldvt, double* work, const int* lwork, int* iwork, int* info,
             Length);
void cgesdd_(const char* jobz, const int* m, const int* n, c32* a, const int* lda, float* s, c32* u, const int* ldu,
             c32* vt, const int* ldvt, c32* work, const int* lwork, float* rwork, int* iwork, int* info, Length);
void zgesdd_(const char* jobz, const int* m, const int* n, c64* a, const int* lda, double* s, c64* u, const int* ldu,
             c64* vt, const int* ldvt, c64* work, const int* lwork, double* rwork, int* iwork, int* info, Length);
void ssyevd_(const char* jobz, const char* uplo, const int* n, float* a, const int* lda, float* w, float* work,
             const int* lwork, int* iwork, const int* liwork, int* info, Length, Length);
void dsyevd_(const char* jobz, const char* uplo, const int* n, double* a, const int* lda, double* w, double* work,
             const int* lwork, int* iwork, const int* liwork, int* info, Length, Length);
void cheevd_(const char* jobz, const char* uplo, const int* n, c32* a, const int* lda, float* w, c32* work,
             const int* lwork, float* rwork, const int* lrwork, int* iwork, const int* liwork, int* info, Length,
             Length);
void zheevd_(const char* jobz, const char* uplo, const int* n, c64* a, const int* lda, double* w, c64* work,
             const int* lwork, double* rwork, const int* lrwork, int* iwork, const int* liwork, int* info, Length,
             Length);
}

// The overloads: T names the routine's type letter.
#define XP_LAPACK_OVERLOADS(T, p)                                                                                     \
  inline void getrf(const int* m, const int* n, T* a, const int* lda, int* ipiv, int* info) {                         \
    p##getrf_(m, n, a, lda, ipiv, info);                                                                              \
  }                                                                                                                   \
  inline void getrs(const int* n, const int* nrhs, const T* a, const int* lda, const int* ipiv, T* b, const int* ldb, \
                    int* info) {                                                                                      \
    p##getrs_("N", n, nrhs, a, lda, ipiv, b, ldb, info, 1);                                                           \
  }                                                                                                                   \
  inline void potrf_lower(const int* n, T* a, const int* lda, int* info) { p##potrf_("L", n, a, lda, info, 1); }      \
  inline void geqrf(const int* m, const int* n, T* a, const int* lda, T* tau, T* work, const int* lwork, int* info) { \
    p##geqrf_(m, n, a, lda, tau, work, lwork, info);                                                                  \
  }
XP_LAPACK_OVERLOADS(float, s)
XP_LAPACK_OVERLOADS(double, d)
XP_LAPACK_OVERLOADS(c32, c)
XP_LAPACK_OVERLOADS(c64, z)
#undef XP_LAPACK_OVERLOADS

inline void orgqr(const int* m, const int* n, const int* k, float* a, const int* lda, const float* tau, float* work,
                  const int* lwork, int* info) {
  sorgqr_(m, n, k, a, lda, tau, work, lwork, info);
}
inline void orgqr(const int* m, const int* n, const int* k, double* a, const int* lda, const double* tau, double* work,
                  const int* lwork, int* info) {
  dorgqr_(m, n, k, a, lda, tau, work, lwork, info);
}
inline void orgqr(const int* m, const int* n, const int* k, c32* a, const int* lda, const c32* tau, c32* work,
                  const int* lwork, int* info) {
  cungqr_(m, n, k, a, lda, tau, work, lwork, info);
}
inline void orgqr(const int* m, const int* n, const int* k, c64* a, const int* lda, const c64* tau, c64* work,
                  const int* lwork, int* info) {
  zungqr_(m, n, k, a, lda, tau, work, lwork, info);
}

// gesdd and syevd / heevd in one form for all four types: the real routines take no real work array
// (`real_work` and `real_lwork` unused by them).
#define XP_LAPACK_SVD_EIGH(T, R, svd_call, eigh_call)                                                      \
  inline void gesdd(const char* jobz, const int* m, const int* n, T* a, R* s, T* u, const int* ldu, T* vt, \
                    const int* ldvt, T* work, const int* lwork, [[maybe_unused]] R* real_work, int* iwork, \
                    int* info) {                                                                           \
    svd_call;                                                                                              \
  }                                                                                                        \
  inline void evd(const char* jobz, const char* uplo, const int* n, T* a, R* w, T* work, const int* lwork, \
                  [[maybe_unused]] R* real_work, [[maybe_unused]] const int* real_lwork, int* iwork,       \
                  const int* liwork, int* info) {                                                          \
    eigh_call;                                                                                             \
  }
XP_LAPACK_SVD_EIGH(float, float, sgesdd_(jobz, m, n, a, m, s, u, ldu, vt, ldvt, work, lwork, iwork, info, 1),
                   ssyevd_(jobz, uplo, n, a, n, w, work, lwork, iwork, liwork, info, 1, 1))
XP_LAPACK_SVD_EIGH(double, double, dgesdd_(jobz, m, n, a, m, s, u, ldu, vt, ldvt, work, lwork, iwork, info, 1),
                   dsyevd_(jobz, uplo, n, a, n, w, work, lwork, iwork, liwork, info, 1, 1))
XP_LAPACK_SVD_EIGH(c32, float, cgesdd_(jobz, m, n, a, m, s, u, ldu, vt, ldvt, work, lwork, real_work, iwork, info, 1),
                   cheevd_(jobz, uplo, n, a, n, w, work, lwork, real_work, real_lwork, iwork, liwork, info, 1, 1))
XP_LAPACK_SVD_EIGH(c64, double, zgesdd_(jobz, m, n, a, m, s, u, ldu, vt, ldvt, work, lwork, real_work, iwork, info, 1),
                   zheevd_(jobz, uplo, n, a, n, w, work, lwork, real_work, real_lwork, iwork, liwork, info, 1, 1))
#undef XP_LAPACK_SVD_EIGH

}  // namespace xp::detail::lapack
