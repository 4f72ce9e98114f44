// CBLAS is OpenBLAS's OpenMP build (libopenblas-openmp-dev): its threads are the OpenMP threads the
// library's loops use, so a BLAS call inside a parallel region runs on the thread that makes it and
// nothing oversubscribes the cores. Several cpu devices may call it at once without a lock of ours:
// Debian's 0.3.21 build reserves its one set of thread buffers by an atomic compare-exchange
// (OPENBLAS_HAVE_C11 in its openblas_config.h) and waits while another call holds it, and takes the
// buffers of single-threaded calls from a locked table (tests/test_linalg.cpp runs 4 threads x 200
// products against a serial run). Inside a parallel region OpenBLAS runs on the calling thread alone,
// so a cpu device given a share of the cores (detail::CoreShare) splits large products into blocks
// of rows itself.
#include "cpu/cpu_gemm.hpp"

#include <cblas.h>
#include <omp.h>

#include <algorithm>

#include "cpu/small_gemm.hpp"
#include "xp/kernels/compute_dtypes.hpp"
#include "xp/kernels/cpu/parallel_for.hpp"
#include "xp/kernels/exact_product.hpp"

namespace xp::detail {

namespace {

// Products of at most this many multiply-adds run one per thread, each on its thread alone; larger
// ones run one after another, each on all of OpenBLAS's threads.
constexpr std::int64_t kPerThreadProduct = kSmallProduct;

// Whether m * n * k <= limit, without overflowing.
bool work_at_most(const GemmCall& call, std::int64_t limit) {
  return call.m <= limit && call.n <= limit / call.m && call.k <= limit / (call.m * call.n);
}

CBLAS_TRANSPOSE flag(BlasMatrix form) { return form.transposed ? CblasTrans : CblasNoTrans; }

template <class T>
void blas_gemm(const BlasInts& i, const T* a, BlasMatrix a_form, const T* b, BlasMatrix b_form, T* c) {
  const auto ta = flag(a_form), tb = flag(b_form);
  if constexpr (std::is_same_v<T, float>) {
    cblas_sgemm(CblasRowMajor, ta, tb, i.m, i.n, i.k, 1.0f, a, i.lda, b, i.ldb, 0.0f, c, i.ldc);
  } else if constexpr (std::is_same_v<T, double>) {
    cblas_dgemm(CblasRowMajor, ta, tb, i.m, i.n, i.k, 1.0, a, i.lda, b, i.ldb, 0.0, c, i.ldc);
  } else {  // complex: alpha and beta by address
    const T one(1), zero(0);
    if constexpr (std::is_same_v<T, std::complex<float>>)
      cblas_cgemm(CblasRowMajor, ta, tb, i.m, i.n, i.k, &one, a, i.lda, b, i.ldb, &zero, c, i.ldc);
    else cblas_zgemm(CblasRowMajor, ta, tb, i.m, i.n, i.k, &one, a, i.lda, b, i.ldb, &zero, c, i.ldc);
  }
}

// Whether a product goes to small_gemm (real floats only; complex ones always go to OpenBLAS).
template <class T>
bool runs_small(const GemmCall& call) {
  return std::is_floating_point_v<T> && work_at_most(call, kSmallProduct) && !call.b_form.transposed;
}

// The products [begin, end) of a batch, one after another.
template <class T>
void float_products(const GemmCall& call, std::int64_t begin, std::int64_t end) {
  const auto* a = static_cast<const T*>(call.a);
  const auto* b = static_cast<const T*>(call.b);
  auto* c = static_cast<T*>(call.c);
  const bool small = runs_small<T>(call);
  const BlasInts ints = blas_ints(call, "OpenBLAS");
  for (std::int64_t index = begin; index < end; ++index) {
    const GemmBatch::Offsets at = call.batch.offsets(index);
    if constexpr (!std::is_floating_point_v<T>) {
      blas_gemm(ints, a + at.a, call.a_form, b + at.b, call.b_form, c + at.c);
    } else if (small) {
      small_gemm(call.m, call.n, call.k, a + at.a, strides_of(call.a_form), b + at.b, call.b_form.ld, c + at.c,
                 call.ldc);
    } else {
      blas_gemm(ints, a + at.a, call.a_form, b + at.b, call.b_form, c + at.c);
    }
  }
}

// Rows [begin, end) of product `index` of a batch.
template <class T>
struct RowBlocks {
  const GemmCall* call;
  std::int64_t index;

  static void run(void* context, std::int64_t begin, std::int64_t end) {
    const auto& self = *static_cast<const RowBlocks*>(context);
    const GemmCall& call = *self.call;
    const GemmBatch::Offsets at = call.batch.offsets(self.index);
    BlasInts ints = blas_ints(call, "OpenBLAS");
    ints.m = static_cast<int>(end - begin);
    blas_gemm(ints, static_cast<const T*>(call.a) + at.a + begin * strides_of(call.a_form).rows, call.a_form,
              static_cast<const T*>(call.b) + at.b, call.b_form, static_cast<T*>(call.c) + at.c + begin * call.ldc);
  }
};

// Large products one after another, each split by rows over the calling thread's share of the cores.
template <class T>
void row_blocked_products(const GemmCall& call) {
  const std::int64_t grain = std::max<std::int64_t>(1, kSmallProduct / (call.n * call.k));
  for (std::int64_t index = 0; index < call.batch.count(); ++index) {
    RowBlocks<T> blocks{&call, index};
    parallel_for(call.m, grain, &RowBlocks<T>::run, &blocks);
  }
}

// One small product: its rows split over the threads.
template <class T>
void small_product_by_rows(const GemmCall& call) {
  parallel_for(
      call.m, std::max<std::int64_t>(1, kParallelGrain * 4 / (call.n * call.k)),
      [](void* context, std::int64_t begin, std::int64_t end) {
        const GemmCall& one = *static_cast<const GemmCall*>(context);
        const MatrixStrides a = strides_of(one.a_form);
        small_gemm(end - begin, one.n, one.k, static_cast<const T*>(one.a) + begin * a.rows, a,
                   static_cast<const T*>(one.b), one.b_form.ld, static_cast<T*>(one.c) + begin * one.ldc, one.ldc);
      },
      const_cast<GemmCall*>(&call));
}

template <class T>
void float_batch(const GemmCall& call) {
  blas_ints(call, "OpenBLAS");  // fails before any product is written
  const std::int64_t count = call.batch.count();
  if constexpr (std::is_floating_point_v<T>) {
    if (count == 1 && runs_small<T>(call)) return small_product_by_rows<T>(call);
  }
  if (count == 1 || !work_at_most(call, kPerThreadProduct)) {
    if (omp_in_parallel() && cpu_threads() > 1 && !work_at_most(call, kSmallProduct)) row_blocked_products<T>(call);
    else float_products<T>(call, 0, count);
    return;
  }
  parallel_for(
      count, std::max<std::int64_t>(1, kParallelGrain * 4 / (call.m * call.n * call.k)),
      [](void* context, std::int64_t begin, std::int64_t end) {
        float_products<T>(*static_cast<const GemmCall*>(context), begin, end);
      },
      const_cast<GemmCall*>(&call));
}

template <class T>
struct ExactBatch {
  const GemmCall* call;
  kernels::ExactProduct<T> product;

  // Elements [begin, end) of C, counted over the whole batch in C order.
  static void run(void* context, std::int64_t begin, std::int64_t end) {
    const auto& self = *static_cast<const ExactBatch*>(context);
    const GemmCall& call = *self.call;
    const std::int64_t per_product = call.m * call.n;
    for (std::int64_t position = begin; position < end; ++position) {
      const std::int64_t element = position % per_product;
      const GemmBatch::Offsets at = call.batch.offsets(position / per_product);
      self.product(at.a, at.b, at.c, element / call.n, element % call.n);
    }
  }
};

template <class T>
void exact_batch(const GemmCall& call) {
  const MatrixStrides a = strides_of(call.a_form), b = strides_of(call.b_form);
  ExactBatch<T> batch{&call,
                      {static_cast<const T*>(call.a), a.rows, a.cols, static_cast<const T*>(call.b), b.rows, b.cols,
                       static_cast<T*>(call.c), call.ldc, call.k}};
  parallel_for(call.batch.count() * call.m * call.n, std::max<std::int64_t>(1, kParallelGrain / call.k),
               &ExactBatch<T>::run, &batch);
}

}  // namespace

void cpu_gemm(const GemmCall& call) {
  kernels::visit_compute_dtype(call.type, [&](auto type) {
    using T = typename decltype(type)::type;
    if constexpr (std::is_floating_point_v<T> || kernels::is_complex_v<T>) float_batch<T>(call);
    else exact_batch<T>(call);
  });
}

}  // namespace xp::detail
