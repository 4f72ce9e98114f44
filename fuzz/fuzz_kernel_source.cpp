// Run-time kernels up to their generated source: a user's signature, operation or map/reduce/post-map
// expressions, identity, preamble, loop code and reduce type, then the arguments of one call (scalar or
// array, dtype, rank, layout) bound to the parameters as a call binds them, and the elementwise or
// reduction source generated for the CPU and the GPU. Every step succeeds or throws ValueError or
// TypeError; a generated source holds the kernel's name and the user's code. Input: strings as
// FuzzedDataProvider takes them (each ends at a backslash and one more character), the choices from
// the end.
#include <fuzzer/FuzzedDataProvider.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/kernel_params.hpp"
#include "core/kernel_source.hpp"
#include "fuzz_check.hpp"
#include "xp/error.hpp"
#include "xp/ndim.hpp"

namespace {

using namespace xp::detail;

xp::dtype any_dtype(FuzzedDataProvider& input) {
  return static_cast<xp::dtype>(input.ConsumeIntegralInRange<int>(0, xp::kNumDtypes - 1));
}

// One call's arguments: their dtypes as the binding sees them (nullopt for scalars), and their
// signatures once the placeholders are bound (as user_kernel_call.cpp's arg_signature makes them).
struct Call {
  std::vector<std::optional<xp::dtype>> in_types, out_types;
  std::vector<bool> scalar;  // inputs and outputs
  std::vector<int> ndim;  // raw arrays
  std::vector<bool> contiguous;  // raw arrays
};

Call any_call(FuzzedDataProvider& input, const KernelParams& params, bool outputs_given) {
  Call call;
  const auto add = [&](bool is_input) {
    const bool scalar = is_input && input.ConsumeBool();
    call.scalar.push_back(scalar);
    call.ndim.push_back(input.ConsumeIntegralInRange<int>(0, xp::kMaxNdim));
    call.contiguous.push_back(input.ConsumeBool());
    return scalar ? std::nullopt : std::optional<xp::dtype>(any_dtype(input));
  };
  for (std::size_t k = 0; k < params.in.size(); ++k) call.in_types.push_back(add(true));
  for (std::size_t k = 0; k < params.out.size(); ++k) {
    const std::optional<xp::dtype> type = add(false);
    if (outputs_given) call.out_types.push_back(type);
  }
  return call;
}

ArgList signatures(const KernelParams& params, const Call& call, const TypeBindings& bindings) {
  ArgList args;
  args.resize(params.in.size() + params.out.size());
  for (std::size_t k = 0; k < args.size(); ++k) {
    const KernelParam& param = k < params.in.size() ? params.in[k] : params.out[k - params.in.size()];
    const xp::dtype type = param_dtype(param, bindings);
    if (call.scalar[k]) args[k] = {ArgKind::scalar, type, 0, false};
    else if (param.raw) args[k] = {ArgKind::raw, type, call.ndim[k], call.contiguous[k]};
    else args[k] = {ArgKind::array, type, 0, false};
  }
  return args;
}

bool holds(const std::string& source, const std::string& part) { return source.find(part) != std::string::npos; }

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  FuzzedDataProvider input(data, size);
  const bool reduction = input.ConsumeBool();
  const std::string name = input.ConsumeRandomLengthString(64);
  const std::string in = input.ConsumeRandomLengthString(256);
  const std::string out = input.ConsumeRandomLengthString(256);
  const std::string code = input.ConsumeRandomLengthString(1024);  // the operation, or the map expression
  const std::string reduce_expr = input.ConsumeRandomLengthString(256);
  const std::string post_map_expr = input.ConsumeRandomLengthString(256);
  const std::string identity = input.ConsumeRandomLengthString(64);
  xp::KernelOptions options;
  options.preamble = input.ConsumeRandomLengthString(1024);
  options.loop_prep = input.ConsumeRandomLengthString(256);
  options.after_loop = input.ConsumeRandomLengthString(256);
  options.reduce_type = input.ConsumeRandomLengthString(32);
  options.reduce_dims = input.ConsumeBool();
  try {
    KernelParams params = reduction ? parse_kernel_signature(name, in, out, kReductionReservedNames)
                                    : parse_kernel_signature(name, in, out, kElementwiseReservedNames);
    const Call call = any_call(input, params, input.ConsumeBool());
    TypeBindings bindings = bind_kernel_types(params.in, params.out, call.in_types, call.out_types);
    ArgList args = signatures(params, call, bindings);
    if (!reduction) {
      const ElementwiseSpec spec{std::move(params.in), std::move(params.out), code, name, options};
      ElementwiseSignature signature{args, bindings, input.ConsumeIntegralInRange<int>(1, xp::kMaxNdim), false};
      signature.contiguous = signature.loop_ndim == 1 && input.ConsumeBool();
      for (const KernelTarget target : {KernelTarget::cpu, KernelTarget::cuda}) {
        const std::string source = elementwise_source(spec, signature, target);
        FUZZ_CHECK(holds(source, name) && holds(source, code) && holds(source, options.preamble));
      }
    } else {
      if (params.out.empty()) return 0;  // ReductionKernel refuses it before any call
      const ReductionSpec spec{
          std::move(params.in), std::move(params.out), code, reduce_expr, post_map_expr, identity, name, options};
      const int kept = input.ConsumeIntegralInRange<int>(0, xp::kMaxNdim);
      const int reduced = input.ConsumeIntegralInRange<int>(0, xp::kMaxNdim - kept);
      const int block = 32 << input.ConsumeIntegralInRange<int>(0, 5);
      const ReductionSignature signature{args, bindings, kept, reduced, block};
      for (const KernelTarget target : {KernelTarget::cpu, KernelTarget::cuda}) {
        const std::string source = reduction_source(spec, signature, target);
        FUZZ_CHECK(holds(source, name) && holds(source, code) && holds(source, reduce_expr) &&
                   holds(source, identity) && holds(source, options.preamble));
      }
    }
  } catch (const xp::ValueError&) {
  } catch (const xp::TypeError&) {}
  return 0;
}
