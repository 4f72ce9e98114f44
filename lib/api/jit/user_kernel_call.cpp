#include "api/jit/user_kernel_call.hpp"

#include "api/array/array_factory.hpp"
#include "core/layout.hpp"

namespace xp::detail {

CallArguments check_call(std::string_view name, std::span<const KernelParam> in, std::span<const KernelParam> out,
                         std::span<const KernelArg> args, const Stream* stream) {
  XP_CHECK(args.size() == in.size() || args.size() == in.size() + out.size(), TypeError,
           "Wrong number of arguments for ", name, ": ", args.size(), " given, ", in.size(), " inputs and ", out.size(),
           " outputs expected");
  CallArguments call{args.first(in.size()), args.subspan(in.size()), {}, {}};
  std::array<std::optional<xp::dtype>, kMaxKernelParams> in_types, out_types;
  std::array<const ArrayCore*, kMaxKernelParams> arrays;  // the first n are set
  std::array<int, kMaxKernelParams> positions;
  std::size_t n = 0;
  for (std::size_t k = 0; k < args.size(); ++k) {
    const bool input = k < in.size();
    if (!input)
      XP_CHECK(args[k].array != nullptr, TypeError, name, ": output arguments must be arrays, argument ", k, " (",
               out[k - in.size()].name, ") is a scalar");
    if (!args[k].array) continue;
    (input ? in_types[k] : out_types[k - in.size()]) = args[k].array->dtype();
    arrays[n] = args[k].array;
    positions[n++] = static_cast<int>(k);
  }
  call.bindings =
      bind_kernel_types(in, out, std::span(in_types.data(), in.size()), std::span(out_types.data(), call.out.size()));
  const Device device =
      n > 0 ? common_device(name, std::span(arrays.data(), n), std::span(positions.data(), n)) : current_device();
  call.exec = exec_for(device, stream, name);
  return call;
}

int block_size_of(const KernelCall& call, const KernelOptions& options, int fallback) {
  const int size = call.block_size.value_or(options.block_size.value_or(fallback));
  XP_CHECK(size > 0, ValueError, "block_size must be greater than zero, not ", size);
  return size;
}

ArgSignature arg_signature(const KernelParam& param, const KernelArg& arg, const TypeBindings& bindings) {
  const xp::dtype type = param_dtype(param, bindings);
  if (!arg.array) return {ArgKind::scalar, type, 0, false};
  if (param.raw) return {ArgKind::raw, type, arg.array->ndim(), arg.array->is_contiguous()};
  return {ArgKind::array, type, 0, false};
}

void add_raw_or_scalar(KernelArguments& arguments, const KernelArg& arg, const ArgSignature& signature) {
  if (signature.kind == ArgKind::raw) arguments.add_raw(*arg.array);
  else arguments.add_scalar(arg.scalar, signature.type);
}

void add_to_key(SignatureKey& key, Device device, std::span<const ArgSignature> args) {
  key.add(static_cast<int>(device.type()));
  key.add(device.id());
  key.add(static_cast<int>(args.size()));
  for (const ArgSignature& a : args) {
    key.add(static_cast<int>(a.kind));
    key.add(static_cast<int>(a.type));
    key.add(a.ndim);
    key.add(a.contiguous);
  }
}

ndarray<> only_output(std::vector<ndarray<>> outputs, const std::string& kernel) {
  XP_CHECK(outputs.size() == 1, ValueError, "kernel ", kernel, " has ", outputs.size(),
           " outputs: call outputs(...) to get all of them");
  return std::move(outputs.front());
}

void order_access(const Exec& exec, std::span<const KernelArg> args) {
  for (const KernelArg& a : args)
    if (a.array && ArrayInternals::buffer(*a.array)) ArrayInternals::buffer(*a.array)->order_access(exec);
}

}  // namespace xp::detail
