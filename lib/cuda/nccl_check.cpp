#include "cuda/nccl_check.hpp"

#include <string>

#include "cuda/cuda_services.hpp"
#include "xp/error.hpp"

namespace xp::detail {

bool cuda_has_nccl() noexcept { return true; }

namespace {

const char* nccl_error_name(ncclResult_t status) {
  switch (status) {
    case ncclUnhandledCudaError: return "ncclUnhandledCudaError";
    case ncclSystemError: return "ncclSystemError";
    case ncclInternalError: return "ncclInternalError";
    case ncclInvalidArgument: return "ncclInvalidArgument";
    case ncclInvalidUsage: return "ncclInvalidUsage";
    case ncclRemoteError: return "ncclRemoteError";
    default: return "ncclError";
  }
}

}  // namespace

void check_nccl(ncclResult_t status, const char* call_text) {
  if (status == ncclSuccess) [[likely]]
    return;
  const std::string text(call_text);
  throw CudaError(text.substr(0, text.find('(')), static_cast<int>(status), nccl_error_name(status),
                  ncclGetErrorString(status), "");
}

std::optional<ncclDataType_t> nccl_type_of(xp::dtype type) noexcept {
  switch (type) {
    case xp::dtype::int8: return ncclInt8;
    case xp::dtype::uint8: return ncclUint8;
    case xp::dtype::int32: return ncclInt32;
    case xp::dtype::uint32: return ncclUint32;
    case xp::dtype::int64: return ncclInt64;
    case xp::dtype::uint64: return ncclUint64;
    case xp::dtype::float32: return ncclFloat32;
    case xp::dtype::float64: return ncclFloat64;
    case xp::dtype::float16: return ncclFloat16;
    case xp::dtype::bfloat16: return ncclBfloat16;
    default: return std::nullopt;
  }
}

ncclDataType_t nccl_type(xp::dtype type, const char* operation) {
  const std::optional<ncclDataType_t> found = nccl_type_of(type);
  if (!found) throw TypeError(operation, ": NCCL has no sum of ", type, " on GPUs");
  return *found;
}

}  // namespace xp::detail
