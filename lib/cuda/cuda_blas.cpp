// cuBLAS for row-major arrays: a row-major C = A . B is the column-major C^T = B^T . A^T, so B goes
// first and each operand's transpose flag is its row-major one. One handle per (thread, device), as
// cuBLAS handles must not be used by two threads at once; the array's stream is set on every call, and
// since that resets the handle's workspace, the workspace (from the device's pool) is set after it,
// one per (handle, stream). TF32 only when XP_ALLOW_TF32=1.
#include <cublas_v2.h>
#include <cuda_runtime_api.h>

#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/stream_capture.hpp"
#include "cuda/cuda_check.hpp"
#include "cuda/cuda_device_guard.hpp"
#include "cuda/cuda_gemm.hpp"
#include "xp/device.hpp"
#include "xp/error.hpp"

namespace xp::detail {

namespace {

void check_cublas(cublasStatus_t status, const char* call_text, int device_id) {
  if (status == CUBLAS_STATUS_SUCCESS) [[likely]]
    return;
  const std::string text(call_text);
  throw CudaError(text.substr(0, text.find('(')), static_cast<int>(status), cublasGetStatusName(status),
                  cublasGetStatusString(status), gpu(device_id).str());
}

#define XP_CUBLAS_CHECK(call, device_id) check_cublas((call), #call, (device_id))

bool tf32_allowed() {
  static const bool allowed = [] {
    const char* value = std::getenv("XP_ALLOW_TF32");
    return value != nullptr && std::strcmp(value, "1") == 0;
  }();
  return allowed;
}

// NVIDIA's advice for cublasSetWorkspace: 32 MiB on Hopper, 4 MiB before it.
std::size_t workspace_bytes(int device) {
  int major = 0;
  XP_CUDA_CHECK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device), device);
  return (major >= 9 ? 32 : 4) << 20;
}

class BlasHandle {
 public:
  explicit BlasHandle(int device) : device_(device) {
    const CudaDeviceGuard guard(device);
    XP_CUBLAS_CHECK(cublasCreate(&handle_), device);
    workspace_bytes_ = workspace_bytes(device);
  }
  ~BlasHandle() {
    workspaces_.clear();
    release_on_device(device_, [&] { cublasDestroy(handle_); });
  }
  BlasHandle(const BlasHandle&) = delete;
  BlasHandle& operator=(const BlasHandle&) = delete;

  // The handle on exec's stream, with that stream's workspace.
  cublasHandle_t on(const Exec& exec, MemoryPool& pool) {
    const auto stream = static_cast<cudaStream_t>(exec.stream.native_handle());
    XP_CUBLAS_CHECK(cublasSetStream(handle_, stream), device_);
    auto workspace = workspaces_.find(stream);
    if (workspace == workspaces_.end())  // entered once allocated: a failed allocation is retried next call
      workspace = workspaces_.emplace(stream, pool.malloc(workspace_bytes_, exec.stream)).first;
    XP_CUBLAS_CHECK(cublasSetWorkspace(handle_, workspace->second.get(), workspace->second.size()), device_);
    return handle_;
  }

 private:
  int device_;
  cublasHandle_t handle_ = nullptr;
  std::size_t workspace_bytes_ = 0;
  std::unordered_map<cudaStream_t, Allocation> workspaces_;
};

BlasHandle& handle_for(int device) {
  thread_local std::unordered_map<int, std::unique_ptr<BlasHandle>> handles;
  auto& handle = handles[device];
  if (!handle) handle = std::make_unique<BlasHandle>(device);
  return *handle;
}

cublasOperation_t op(BlasMatrix form) { return form.transposed ? CUBLAS_OP_T : CUBLAS_OP_N; }

// A dtype's cuBLAS data and compute types, and alpha = 1, beta = 0 in the compute type's scalar (float
// for float32, complex64 and the 2-byte floats, double for float64 and complex128; complex scalars are
// two of them). 2-byte products accumulate in float32 and round once into C (CUBLAS_COMPUTE_32F).
struct GemmTypes {
  explicit GemmTypes(xp::dtype type)
      : single(type != xp::dtype::float64 && type != xp::dtype::complex128),
        data(type == xp::dtype::float32     ? CUDA_R_32F
             : type == xp::dtype::float64   ? CUDA_R_64F
             : type == xp::dtype::float16   ? CUDA_R_16F
             : type == xp::dtype::bfloat16  ? CUDA_R_16BF
             : type == xp::dtype::complex64 ? CUDA_C_32F
                                            : CUDA_C_64F),
        // TF32 only for real float32 products (cuBLAS's fast complex modes are another switch).
        compute(type == xp::dtype::float32 && tf32_allowed() ? CUBLAS_COMPUTE_32F_FAST_TF32
                : single                                     ? CUBLAS_COMPUTE_32F
                                                             : CUBLAS_COMPUTE_64F) {}
  const void* alpha() const { return single ? static_cast<const void*>(one_single) : one_double; }
  const void* beta() const { return single ? static_cast<const void*>(zero_single) : zero_double; }

  bool single;
  cudaDataType_t data;
  cublasComputeType_t compute;

 private:
  float one_single[2] = {1, 0}, zero_single[2] = {0, 0};
  double one_double[2] = {1, 0}, zero_double[2] = {0, 0};
};

}  // namespace

void cuda_blas_gemm(const GemmCall& call, const Exec& exec) {
  const int device = exec.device.id();
  const CudaDeviceGuard guard(device);
  const cublasHandle_t handle = handle_for(device).on(exec, *call.pool);
  const GemmTypes types(call.type);
  const cudaDataType_t type = types.data;
  const cublasComputeType_t compute = types.compute;
  const void* alpha = types.alpha();
  const void* beta = types.beta();
  const auto [m, n, k, lda, ldb, ldc] = blas_ints(call, "cuBLAS");
  const GemmBatch& batch = call.batch;
  if (batch.ndim == 0) {
    XP_CUBLAS_CHECK(cublasGemmEx(handle, op(call.b_form), op(call.a_form), n, m, k, alpha, call.b, type, ldb, call.a,
                                 type, lda, beta, call.c, type, ldc, compute, CUBLAS_GEMM_DEFAULT),
                    device);
  } else if (batch.ndim == 1) {
    const int count = blas_int(batch.shape[0], "batch", "cuBLAS");
    XP_CUBLAS_CHECK(cublasGemmStridedBatchedEx(handle, op(call.b_form), op(call.a_form), n, m, k, alpha, call.b, type,
                                               ldb, batch.b[0], call.a, type, lda, batch.a[0], beta, call.c, type, ldc,
                                               batch.c[0], count, compute, CUBLAS_GEMM_DEFAULT),
                    device);
  } else {
    // Batch axes that no single stride walks (broadcast ones): arrays of pointers, B's, A's, C's.
    const CaptureRecording* const capture = capture_under_way();
    XP_CHECK(!capture || !capture->records(exec), ValueError,
             "matmul over broadcast batch axes copies a table of pointers from host ",
             "memory, which a graph of xp::capture would read again after it is gone: make the operands' batch ",
             "axes whole first (xp::broadcast_to, then a copy)");
    const int count = blas_int(batch.count(), "batch", "cuBLAS");
    const std::size_t size = itemsize(call.type);
    std::vector<const void*> pointers(3 * static_cast<std::size_t>(count));
    for (int index = 0; index < count; ++index) {
      const GemmBatch::Offsets at = batch.offsets(index);
      pointers[index] = static_cast<const char*>(call.b) + at.b * static_cast<std::int64_t>(size);
      pointers[count + index] = static_cast<const char*>(call.a) + at.a * static_cast<std::int64_t>(size);
      pointers[2 * count + index] = static_cast<const char*>(call.c) + at.c * static_cast<std::int64_t>(size);
    }
    const Allocation table = call.pool->malloc(pointers.size() * sizeof(void*), exec.stream);
    const auto stream = static_cast<cudaStream_t>(exec.stream.native_handle());
    // From pageable memory: the call returns once the pointers are staged, so the vector may go.
    XP_CUDA_CHECK(
        cudaMemcpyAsync(table.get(), pointers.data(), pointers.size() * sizeof(void*), cudaMemcpyHostToDevice, stream),
        device);
    const auto* device_pointers = static_cast<void* const*>(table.get());
    XP_CUBLAS_CHECK(cublasGemmBatchedEx(handle, op(call.b_form), op(call.a_form), n, m, k, alpha, device_pointers, type,
                                        ldb, device_pointers + count, type, lda, beta,
                                        const_cast<void* const*>(device_pointers + 2 * count), type, ldc, count,
                                        compute, CUBLAS_GEMM_DEFAULT),
                    device);
  }
}

}  // namespace xp::detail
