#include "cuda/cuda_check.hpp"

#include <string>

#include "xp/device.hpp"
#include "xp/error.hpp"

namespace xp::detail {

void throw_cuda_error(cudaError_t status, const char* call_text, int device_id) {
  cudaGetLastError();  // clears a non-sticky error so that later calls do not report it again
  const std::string text(call_text);
  const std::string call = text.substr(0, text.find('('));  // the function's name
  throw CudaError(call, static_cast<int>(status), cudaGetErrorName(status), cudaGetErrorString(status),
                  device_id < 0 ? "" : gpu(device_id).str());
}

}  // namespace xp::detail
