// xp::ElementwiseKernel: CuPy's rules for one call, then the compiled kernel for its signature.
#include <array>

#include "api/array_factory.hpp"
#include "api/backends.hpp"
#include "api/user_kernel_call.hpp"
#include "core/layout.hpp"

namespace xp {

namespace detail {

struct ElementwiseKernelState {
  ElementwiseSpec spec;
  KernelMemo memo;
};

namespace {

constexpr std::string_view kReservedNames[] = {"i", "_ind"};

}  // namespace

}  // namespace detail

ElementwiseKernel::ElementwiseKernel(std::string_view in_params, std::string_view out_params,
                                     std::string_view operation, std::string_view name, KernelOptions options)
    : state_(std::make_shared<detail::ElementwiseKernelState>()) {
  using namespace detail;
  ElementwiseSpec& spec = state_->spec;
  auto [in, out] = parse_kernel_signature(name, in_params, out_params, kReservedNames);
  spec.in = std::move(in);
  spec.out = std::move(out);
  spec.operation = operation;
  spec.name = name;
  spec.options = std::move(options);
  block_size_of({}, spec.options, 128);
}

const std::string& ElementwiseKernel::name() const noexcept { return state_->spec.name; }
std::size_t ElementwiseKernel::cached_kernels() const { return state_->memo.size(); }

std::vector<ndarray<>> ElementwiseKernel::launch(std::span<const detail::KernelArg> args,
                                                 const detail::KernelCall& call) const {
  using namespace detail;
  const ElementwiseSpec& spec = state_->spec;
  const std::string& name = spec.name;
  const int block = block_size_of(call, spec.options, 128);
  CallArguments checked = check_call(name, spec.in, spec.out, args, call.stream);
  const std::size_t n_in = spec.in.size(), n_args = args.size();
  const auto param = [&](std::size_t k) -> const KernelParam& {
    return k < n_in ? spec.in[k] : spec.out[k - n_in];
  };

  // The loop shape: the non-raw arrays broadcast together, or `size` when every array is raw.
  std::array<const Shape*, kMaxKernelParams> shapes;  // the first `broadcast` are set
  std::size_t broadcast = 0;
  for (std::size_t k = 0; k < n_args; ++k)
    if (args[k].array && !param(k).raw) shapes[broadcast++] = &args[k].array->shape();
  Shape shape;
  if (call.size) {
    XP_CHECK(broadcast == 0, ValueError, "Specified 'size' can be used only if all of the ndarray are 'raw'.");
    XP_CHECK(*call.size >= 0, ValueError, name, ": size must not be negative, not ", *call.size);
    shape = Shape(*call.size);
  } else {
    XP_CHECK(broadcast > 0, ValueError, "Loop size is undecided.");
    shape = broadcast_shapes(name, std::span(shapes.data(), broadcast));
  }

  // The outputs: given ones keep their shape, the others are made.
  std::vector<ndarray<>> outputs;
  outputs.reserve(spec.out.size());
  if (checked.out.empty()) {
    for (const KernelParam& p : spec.out) {
      XP_CHECK(!p.raw || call.size, ValueError, "Output array size is Undecided");
      outputs.emplace_back(new_array(shape, param_dtype(p, checked.bindings), checked.exec));
    }
  } else {
    for (std::size_t k = 0; k < spec.out.size(); ++k) {
      const ArrayCore& out = *checked.out[k].array;
      XP_CHECK(spec.out[k].raw || call.size || out.shape() == shape, ValueError,
               "Out shape is mismatched: ", spec.out[k].name, " has shape ", out.shape(), ", the loop ", shape);
      outputs.emplace_back(out);
    }
  }
  const std::int64_t size = numel(shape);
  if (size == 0) return outputs;

  // Strides of every non-raw array over the loop, axes merged where all of them allow it.
  std::array<KernelArg, kMaxKernelParams> operands;  // one per argument, set below
  std::array<Strides, kMaxKernelParams> strides;
  std::array<Strides*, kMaxKernelParams> squashed;
  std::size_t n_strided = 0;
  ElementwiseSignature signature;
  signature.bindings = std::move(checked.bindings);
  signature.args.resize(n_args + (checked.out.empty() ? spec.out.size() : 0));
  for (std::size_t k = 0; k < signature.args.size(); ++k) {
    operands[k] = k < n_args ? args[k] : KernelArg{&outputs[k - n_in], {}};
    signature.args[k] = arg_signature(param(k), operands[k], signature.bindings);
    if (signature.args[k].kind == ArgKind::array) {
      strides[k] = broadcast_strides(operands[k].array->shape(), operands[k].array->strides(), shape);
      squashed[n_strided++] = &strides[k];
    }
  }
  if (spec.options.reduce_dims && shape.ndim() > 0) squash_axes(shape, std::span(squashed.data(), n_strided));
  if (shape.ndim() == 0) {
    shape = Shape(1);
    for (std::size_t k = 0; k < n_strided; ++k) *squashed[k] = Strides(1);
  }
  signature.loop_ndim = shape.ndim();
  signature.contiguous = shape.ndim() == 1;
  for (std::size_t k = 0; k < n_strided; ++k) signature.contiguous = signature.contiguous && (*squashed[k])[0] == 1;

  SignatureKey key;
  add_to_key(key, checked.exec.device, signature.args);
  key.add(signature.loop_ndim);
  key.add(signature.contiguous);
  const std::shared_ptr<const CompiledModule> kernel = state_->memo.get(key, [&] {
    const KernelTarget target = backend_for(checked.exec.device).kernel_target();
    if (target != KernelTarget::cuda)
      observe_cuda_source(name, [&] { return elementwise_source(spec, signature, KernelTarget::cuda); });
    return compile_kernel(checked.exec.device, name, elementwise_source(spec, signature, target),
                          KernelKind::elementwise);
  });

  KernelArguments arguments;
  for (std::size_t k = 0; k < signature.args.size(); ++k) {
    const ArgSignature& s = signature.args[k];
    if (s.kind != ArgKind::array) add_raw_or_scalar(arguments, operands[k], s);
    else if (signature.contiguous) arguments.add_pointer(operands[k].array->raw_data());
    else arguments.add_strided(operands[k].array->raw_data(), strides[k]);
  }
  if (signature.contiguous) arguments.add_size(size);
  else arguments.add_shape(shape);

  order_access(checked.exec, std::span(operands.data(), signature.args.size()));
  kernel->launch({.args = arguments.pointers(), .work = size, .block = block}, checked.exec);
  return outputs;
}

}  // namespace xp
