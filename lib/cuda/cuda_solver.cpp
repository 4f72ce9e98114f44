// Dense factorizations on GPUs: cuSOLVER's 64-bit generic API (getrf, getrs, potrf, geqrf, gesvd, syevd;
// syevBatched for stacks of small matrices) and its typed orgqr / ungqr. One handle per (thread, device),
// as cuSOLVER handles must not be used by two threads at once, set to the array's stream on every call;
// device workspace from the device's pool, stream-ordered, so nothing synchronises here.
#include <cuda_runtime_api.h>
#include <cusolverDn.h>

#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "cuda/cuda_check.hpp"
#include "cuda/cuda_device_guard.hpp"
#include "cuda/cuda_solver.hpp"
#include "xp/device.hpp"
#include "xp/error.hpp"

namespace xp::detail {

namespace {

const char* status_name(cusolverStatus_t status) {
  switch (status) {
    case CUSOLVER_STATUS_NOT_INITIALIZED: return "CUSOLVER_STATUS_NOT_INITIALIZED";
    case CUSOLVER_STATUS_ALLOC_FAILED: return "CUSOLVER_STATUS_ALLOC_FAILED";
    case CUSOLVER_STATUS_INVALID_VALUE: return "CUSOLVER_STATUS_INVALID_VALUE";
    case CUSOLVER_STATUS_ARCH_MISMATCH: return "CUSOLVER_STATUS_ARCH_MISMATCH";
    case CUSOLVER_STATUS_EXECUTION_FAILED: return "CUSOLVER_STATUS_EXECUTION_FAILED";
    case CUSOLVER_STATUS_INTERNAL_ERROR: return "CUSOLVER_STATUS_INTERNAL_ERROR";
    case CUSOLVER_STATUS_NOT_SUPPORTED: return "CUSOLVER_STATUS_NOT_SUPPORTED";
    case CUSOLVER_STATUS_INVALID_WORKSPACE: return "CUSOLVER_STATUS_INVALID_WORKSPACE";
    default: return "CUSOLVER_STATUS_OTHER";
  }
}

void check_cusolver(cusolverStatus_t status, const char* call_text, int device_id) {
  if (status == CUSOLVER_STATUS_SUCCESS) [[likely]]
    return;
  const std::string text(call_text);
  throw CudaError(text.substr(0, text.find('(')), static_cast<int>(status), status_name(status), "cuSOLVER failed",
                  gpu(device_id).str());
}

#define XP_CUSOLVER_CHECK(call, device_id) check_cusolver((call), #call, (device_id))

class SolverHandle {
 public:
  explicit SolverHandle(int device) : device_(device) {
    const CudaDeviceGuard guard(device);
    XP_CUSOLVER_CHECK(cusolverDnCreate(&handle_), device);
    XP_CUSOLVER_CHECK(cusolverDnCreateParams(&params_), device);
  }
  ~SolverHandle() {
    release_on_device(device_, [&] {
      cusolverDnDestroyParams(params_);
      cusolverDnDestroy(handle_);
    });
  }
  SolverHandle(const SolverHandle&) = delete;
  SolverHandle& operator=(const SolverHandle&) = delete;

  cusolverDnHandle_t on(const Exec& exec) {
    XP_CUSOLVER_CHECK(cusolverDnSetStream(handle_, static_cast<cudaStream_t>(exec.stream.native_handle())), device_);
    return handle_;
  }
  cusolverDnParams_t params() const noexcept { return params_; }
  // Host workspace: used during the call only, reused by the next.
  void* host_workspace(std::size_t bytes) {
    if (host_.size() < bytes) host_.resize(bytes);
    return host_.data();
  }

 private:
  int device_;
  cusolverDnHandle_t handle_ = nullptr;
  cusolverDnParams_t params_ = nullptr;
  std::vector<std::byte> host_;
};

SolverHandle& solver_handle_for(int device) {
  thread_local std::unordered_map<int, std::unique_ptr<SolverHandle>> handles;
  auto& handle = handles[device];
  if (!handle) handle = std::make_unique<SolverHandle>(device);
  return *handle;
}

cudaDataType data_type(xp::dtype type) {
  switch (type) {
    case xp::dtype::float32: return CUDA_R_32F;
    case xp::dtype::float64: return CUDA_R_64F;
    case xp::dtype::complex64: return CUDA_C_32F;
    case xp::dtype::complex128: return CUDA_C_64F;
    default: throw TypeError("linalg: cuSOLVER has no routines for ", type);
  }
}

cudaDataType real_type(xp::dtype type) {
  return type == xp::dtype::float32 || type == xp::dtype::complex64 ? CUDA_R_32F : CUDA_R_64F;
}

// What one call of a routine needs: the handle, types, workspace, and each matrix's address.
struct Context {
  const SolverCall& call;
  const Exec& exec;
  int device;
  cusolverDnHandle_t handle;
  cusolverDnParams_t params;
  cudaDataType type, real;
  std::size_t item;  // bytes of one element of `type`

  void* at(void* base, std::int64_t index, std::int64_t elements, std::size_t bytes) const {
    return static_cast<char*>(base) + static_cast<std::size_t>(index * elements) * bytes;
  }
  void* matrix(void* base, std::int64_t index, std::int64_t elements) const { return at(base, index, elements, item); }
  Allocation device_workspace(std::size_t bytes) const {
    return call.pool->malloc(std::max<std::size_t>(bytes, 1), exec.stream);
  }
};

// Runs `routine(device workspace, its bytes, host workspace, its bytes, index)` for every matrix.
template <class Routine>
void each_matrix(const Context& c, std::size_t device_bytes, std::size_t host_bytes, Routine&& routine) {
  const Allocation device_work = c.device_workspace(device_bytes);
  void* host_work = solver_handle_for(c.device).host_workspace(host_bytes);
  for (std::int64_t i = 0; i < c.call.batch; ++i) routine(device_work.get(), device_bytes, host_work, host_bytes, i);
}

void lu_factor(const Context& c) {
  const SolverCall& call = c.call;
  const std::int64_t n = call.n;
  std::size_t device_bytes = 0, host_bytes = 0;
  XP_CUSOLVER_CHECK(
      cusolverDnXgetrf_bufferSize(c.handle, c.params, n, n, c.type, call.a, n, c.type, &device_bytes, &host_bytes),
      c.device);
  each_matrix(c, device_bytes, host_bytes, [&](void* dw, std::size_t db, void* hw, std::size_t hb, std::int64_t i) {
    XP_CUSOLVER_CHECK(cusolverDnXgetrf(c.handle, c.params, n, n, c.type, c.matrix(call.a, i, n * n), n,
                                       call.pivots + i * n, c.type, dw, db, hw, hb, call.info + i),
                      c.device);
  });
}

void lu_solve(const Context& c) {
  const SolverCall& call = c.call;
  const std::int64_t n = call.n;
  for (std::int64_t i = 0; i < call.batch; ++i)
    XP_CUSOLVER_CHECK(
        cusolverDnXgetrs(c.handle, c.params, CUBLAS_OP_N, n, call.columns, c.type, c.matrix(call.a, i, n * n), n,
                         call.pivots + i * n, c.type, c.matrix(call.b, i, n * call.columns), n, call.info + i),
        c.device);
}

void cholesky(const Context& c) {
  const SolverCall& call = c.call;
  const std::int64_t n = call.n;
  std::size_t device_bytes = 0, host_bytes = 0;
  XP_CUSOLVER_CHECK(cusolverDnXpotrf_bufferSize(c.handle, c.params, CUBLAS_FILL_MODE_LOWER, n, c.type, call.a, n,
                                                c.type, &device_bytes, &host_bytes),
                    c.device);
  each_matrix(c, device_bytes, host_bytes, [&](void* dw, std::size_t db, void* hw, std::size_t hb, std::int64_t i) {
    XP_CUSOLVER_CHECK(cusolverDnXpotrf(c.handle, c.params, CUBLAS_FILL_MODE_LOWER, n, c.type,
                                       c.matrix(call.a, i, n * n), n, c.type, dw, db, hw, hb, call.info + i),
                      c.device);
  });
}

void qr_factor(const Context& c) {
  const SolverCall& call = c.call;
  const std::int64_t rows = call.rows, n = call.n, k = std::min(rows, n);
  std::size_t device_bytes = 0, host_bytes = 0;
  XP_CUSOLVER_CHECK(cusolverDnXgeqrf_bufferSize(c.handle, c.params, rows, n, c.type, call.a, rows, c.type, call.tau,
                                                c.type, &device_bytes, &host_bytes),
                    c.device);
  each_matrix(c, device_bytes, host_bytes, [&](void* dw, std::size_t db, void* hw, std::size_t hb, std::int64_t i) {
    XP_CUSOLVER_CHECK(cusolverDnXgeqrf(c.handle, c.params, rows, n, c.type, c.matrix(call.a, i, rows * n), rows, c.type,
                                       c.matrix(call.tau, i, k), c.type, dw, db, hw, hb, call.info + i),
                      c.device);
  });
}

int solver_int(std::int64_t value) {
  XP_CHECK(value <= INT_MAX, ValueError, "linalg: extent ", value, " exceeds the 32-bit integers of cuSOLVER's orgqr");
  return static_cast<int>(value);
}

// orgqr / ungqr have no generic form: the typed routine for T.
template <class T, class Size, class Routine>
void typed_q(const Context& c, Size size_routine, Routine routine) {
  const SolverCall& call = c.call;
  const int rows = solver_int(call.rows), columns = solver_int(call.columns), reflectors = solver_int(call.reflectors);
  const std::int64_t k = std::min(call.rows, call.n);
  int lwork = 0;
  XP_CUSOLVER_CHECK(size_routine(c.handle, rows, columns, reflectors, static_cast<const T*>(call.a), rows,
                                 static_cast<const T*>(call.tau), &lwork),
                    c.device);
  const Allocation work = c.device_workspace(static_cast<std::size_t>(lwork) * sizeof(T));
  for (std::int64_t i = 0; i < call.batch; ++i)
    XP_CUSOLVER_CHECK(
        routine(c.handle, rows, columns, reflectors, static_cast<T*>(c.matrix(call.a, i, call.rows * call.columns)),
                rows, static_cast<const T*>(c.matrix(call.tau, i, k)), static_cast<T*>(work.get()), lwork,
                call.info + i),
        c.device);
}

void qr_q(const Context& c) {
  switch (c.call.type) {
    case xp::dtype::float32: return typed_q<float>(c, cusolverDnSorgqr_bufferSize, cusolverDnSorgqr);
    case xp::dtype::float64: return typed_q<double>(c, cusolverDnDorgqr_bufferSize, cusolverDnDorgqr);
    case xp::dtype::complex64: return typed_q<cuComplex>(c, cusolverDnCungqr_bufferSize, cusolverDnCungqr);
    default: return typed_q<cuDoubleComplex>(c, cusolverDnZungqr_bufferSize, cusolverDnZungqr);
  }
}

void svd(const Context& c) {
  const SolverCall& call = c.call;
  const std::int64_t rows = call.rows, n = call.n;
  const bool none = call.vectors == SingularVectors::none, complete = call.vectors == SingularVectors::complete;
  const signed char jobu = none ? 'N' : complete ? 'A' : 'S', jobvt = none ? 'N' : 'A';
  const std::int64_t u_columns = complete ? rows : n, ldu = rows, ldvt = n;
  std::size_t device_bytes = 0, host_bytes = 0;
  XP_CUSOLVER_CHECK(
      cusolverDnXgesvd_bufferSize(c.handle, c.params, jobu, jobvt, rows, n, c.type, call.a, rows, c.real, call.values,
                                  c.type, call.u, ldu, c.type, call.vt, ldvt, c.type, &device_bytes, &host_bytes),
      c.device);
  each_matrix(c, device_bytes, host_bytes, [&](void* dw, std::size_t db, void* hw, std::size_t hb, std::int64_t i) {
    void* u = none ? nullptr : c.matrix(call.u, i, rows * u_columns);
    void* vt = none ? nullptr : c.matrix(call.vt, i, n * n);
    void* s = c.at(call.values, i, n, c.item / (c.type == c.real ? 1 : 2));
    XP_CUSOLVER_CHECK(
        cusolverDnXgesvd(c.handle, c.params, jobu, jobvt, rows, n, c.type, c.matrix(call.a, i, rows * n), rows, c.real,
                         s, c.type, u, ldu, c.type, vt, ldvt, c.type, dw, db, hw, hb, call.info + i),
        c.device);
  });
}

// Stacks of matrices up to this extent go to syevBatched in one call.
constexpr std::int64_t kBatchedEighExtent = 32;

void eigh(const Context& c) {
  const SolverCall& call = c.call;
  const std::int64_t n = call.n;
  const cusolverEigMode_t jobz =
      call.vectors == SingularVectors::none ? CUSOLVER_EIG_MODE_NOVECTOR : CUSOLVER_EIG_MODE_VECTOR;
  const cublasFillMode_t uplo = call.upper ? CUBLAS_FILL_MODE_UPPER : CUBLAS_FILL_MODE_LOWER;
  const std::size_t real_item = c.item / (c.type == c.real ? 1 : 2);
  std::size_t device_bytes = 0, host_bytes = 0;
  if (call.batch > 1 && n <= kBatchedEighExtent) {
    XP_CUSOLVER_CHECK(cusolverDnXsyevBatched_bufferSize(c.handle, c.params, jobz, uplo, n, c.type, call.a, n, c.real,
                                                        call.values, c.type, &device_bytes, &host_bytes, call.batch),
                      c.device);
    const Allocation work = c.device_workspace(device_bytes);
    void* host_work = solver_handle_for(c.device).host_workspace(host_bytes);
    XP_CUSOLVER_CHECK(
        cusolverDnXsyevBatched(c.handle, c.params, jobz, uplo, n, c.type, call.a, n, c.real, call.values, c.type,
                               work.get(), device_bytes, host_work, host_bytes, call.info, call.batch),
        c.device);
    return;
  }
  XP_CUSOLVER_CHECK(cusolverDnXsyevd_bufferSize(c.handle, c.params, jobz, uplo, n, c.type, call.a, n, c.real,
                                                call.values, c.type, &device_bytes, &host_bytes),
                    c.device);
  each_matrix(c, device_bytes, host_bytes, [&](void* dw, std::size_t db, void* hw, std::size_t hb, std::int64_t i) {
    XP_CUSOLVER_CHECK(cusolverDnXsyevd(c.handle, c.params, jobz, uplo, n, c.type, c.matrix(call.a, i, n * n), n, c.real,
                                       c.at(call.values, i, n, real_item), c.type, dw, db, hw, hb, call.info + i),
                      c.device);
  });
}

}  // namespace

void cuda_solver(const SolverCall& call, const Exec& exec) {
  const int device = exec.device.id();
  const CudaDeviceGuard guard(device);
  SolverHandle& handle = solver_handle_for(device);
  const Context c{call,
                  exec,
                  device,
                  handle.on(exec),
                  handle.params(),
                  data_type(call.type),
                  real_type(call.type),
                  itemsize(call.type)};
  switch (call.routine) {
    case SolverRoutine::lu_factor: return lu_factor(c);
    case SolverRoutine::lu_solve: return lu_solve(c);
    case SolverRoutine::cholesky: return cholesky(c);
    case SolverRoutine::qr_factor: return qr_factor(c);
    case SolverRoutine::qr_q: return qr_q(c);
    case SolverRoutine::svd: return svd(c);
    case SolverRoutine::eigh: return eigh(c);
  }
}

}  // namespace xp::detail
