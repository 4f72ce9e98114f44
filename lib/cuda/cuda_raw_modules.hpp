#pragma once
// Raw CUDA modules (xp::RawKernel, xp::RawModule), declared without CUDA headers: NVRTC compiles a
// user's source with the user's options and name expressions; the runtime's library API loads a CUBIN
// or PTX image and launches one of its kernels with the user's grid, block and shared memory. In a
// build without CUDA (lib/cuda/without_cuda.cpp) these throw NotImplementedError.
#include <array>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "xp/detail/exec.hpp"

namespace xp::detail {

struct RawCompiled {
  std::string cubin;
  std::vector<std::pair<std::string, std::string>> lowered;  // name expression, NVRTC's lowered name
};

// The CUBIN of `source` for `architecture` ("sm_90") with `options` and the toolkit's include folders;
// CompileError with NVRTC's log. Needs no GPU.
RawCompiled compile_raw(std::string_view source, std::span<const std::string> options,
                        std::span<const std::string> name_expressions, std::string_view architecture);

using Extents = std::array<std::uint32_t, 3>;

// A loaded CUBIN or PTX image (PTX is compiled by the driver for the device).
class RawLibrary {
 public:
  explicit RawLibrary(std::string_view image);
  ~RawLibrary();
  RawLibrary(const RawLibrary&) = delete;
  RawLibrary& operator=(const RawLibrary&) = delete;

  // Launches the kernel `name` on exec's stream; `args` point at each parameter's value. ValueError
  // naming `shown` (the name as the user gave it) when the image has no such kernel.
  void launch(const std::string& name, std::string_view shown, const Extents& grid, const Extents& block,
              std::size_t shared_bytes, void** args, const Exec& exec) const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace xp::detail
