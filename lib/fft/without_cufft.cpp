// A build without the CUDA backend has no GPU arrays to transform; these keep its library's symbols
// those of the CUDA build (scripts/abi_compare.sh).
#include "fft/transform.hpp"
#include "xp/error.hpp"

namespace xp::fft::detail {

void run_on_gpu(const Call&, const Stream& stream) {
  throw NotImplementedError("fft: this build has no CUDA backend for ", stream.device());
}

std::size_t gpu_plans(Device) { return 0; }

void clear_gpu_plans(Device) {}

}  // namespace xp::fft::detail
