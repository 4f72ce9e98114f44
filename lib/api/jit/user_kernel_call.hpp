#pragma once
// What ElementwiseKernel and ReductionKernel calls share: checking the arguments against the
// parameters, binding the type placeholders, finding the device and the loop shape of the non-raw
// arrays (CuPy's rules and messages), and running a compiled kernel on the host.
#include <array>
#include <optional>
#include <span>
#include <string_view>

#include "api/jit/compiled_kernels.hpp"
#include "api/jit/kernel_arguments.hpp"
#include "core/kernel_params.hpp"
#include "core/kernel_source.hpp"
#include "xp/detail/exec.hpp"
#include "xp/user_kernel.hpp"

namespace xp::detail {

struct CallArguments {
  std::span<const KernelArg> in, out;  // out: empty when the call gives no outputs
  TypeBindings bindings;
  Exec exec;
};

// Checks the argument count (TypeError "Wrong number of arguments for name"), that given outputs are
// arrays, binds the placeholders and finds the one device of all arrays (the current device when
// there is none); the kernel runs on `stream` when given (it must be on that device), else on the
// device's current stream.
CallArguments check_call(std::string_view name, std::span<const KernelParam> in, std::span<const KernelParam> out,
                         std::span<const KernelArg> args, const Stream* stream);

// A kernel's parameter lists parsed into spec.in and spec.out (CuPy's errors; `reserved`: the names
// its generated code takes), with its name and options.
template <class Spec>
void set_signature(Spec& spec, std::string_view name, std::string_view in_params, std::string_view out_params,
                   std::span<const std::string_view> reserved, KernelOptions options) {
  auto [in, out] = parse_kernel_signature(name, in_params, out_params, reserved);
  spec.in = std::move(in);
  spec.out = std::move(out);
  spec.name = name;
  spec.options = std::move(options);
}

// block_size from the call, else the options, else `fallback`; ValueError unless positive.
int block_size_of(const KernelCall& call, const KernelOptions& options, int fallback);

// What a parameter receives: its kind and the element type the kernel sees.
ArgSignature arg_signature(const KernelParam& param, const KernelArg& arg, const TypeBindings& bindings);

// Adds a raw array or a scalar argument.
void add_raw_or_scalar(KernelArguments& arguments, const KernelArg& arg, const ArgSignature& signature);

void add_to_key(SignatureKey& key, Device device, std::span<const ArgSignature> args);

// The access gate for the kernel's array arguments.
void order_access(const Exec& exec, std::span<const KernelArg> args);

}  // namespace xp::detail
