// xp::ReductionKernel: CuPy's rules for one call (broadcast inputs, axes, keepdims, outputs), then
// the compiled kernel for its signature, run over outputs or, for one output, over parts of it.
#include <algorithm>
#include <array>
#include <vector>

#include "api/array/array_factory.hpp"
#include "api/array/device_services.hpp"
#include "api/jit/user_kernel_call.hpp"
#include "api/ops/loop_shape.hpp"
#include "api/ops/reduction_axes.hpp"
#include "core/layout.hpp"
#include "xp/profile.hpp"

namespace xp {

namespace detail {

struct ReductionKernelState {
  ReductionSpec spec;
  KernelMemo memo;
};

namespace {

// A call's reduction: its axes over the inputs' broadcast shape, every argument with its signature,
// and each non-raw array's strides over the kept axes (inputs' also over the reduced ones), axes
// merged as the built-ins' are.
struct KernelReduction {
  Shape shape;  // the inputs' broadcast shape
  ReductionAxes axes;
  std::array<KernelArg, kMaxKernelParams> operands;  // inputs, then outputs
  std::array<Strides, kMaxKernelParams> kept_strides, reduced_strides;
  ReductionSignature signature;
};

Shape input_shape(const ReductionSpec& spec, std::span<const KernelArg> args) {
  std::array<const Shape*, kMaxKernelParams> shapes;  // the non-raw inputs', the first n_shapes
  std::size_t n_shapes = 0;
  for (std::size_t k = 0; k < spec.in.size(); ++k)
    if (args[k].array && !spec.in[k].raw) shapes[n_shapes++] = &args[k].array->shape();
  return loop_shape(spec.name, std::span(shapes.data(), n_shapes), std::nullopt);
}

std::vector<ndarray<>> bind_outputs(const ReductionSpec& spec, const CallArguments& checked, const Shape& out_shape) {
  std::vector<ndarray<>> outputs;
  outputs.reserve(spec.out.size());
  for (std::size_t k = 0; k < spec.out.size(); ++k) {
    if (checked.out.empty()) {
      outputs.emplace_back(new_array(out_shape, param_dtype(spec.out[k], checked.bindings), checked.exec));
      continue;
    }
    const ArrayCore& out = *checked.out[k].array;
    XP_CHECK(spec.out[k].raw || out.shape() == out_shape, ValueError, "Out shape is mismatched: ", spec.out[k].name,
             " has shape ", out.shape(), ", the reduction's is ", out_shape);
    note_write(out);
    outputs.emplace_back(out);
  }
  return outputs;
}

void plan_operands(const ReductionSpec& spec, std::span<const KernelArg> args, std::span<ndarray<>> outputs,
                   bool keepdims, KernelReduction& plan) {
  const std::size_t n_in = spec.in.size(), n_all = n_in + spec.out.size();
  std::array<Strides*, kMaxKernelParams> kept_list, reduced_list;
  std::size_t n_kept = 0, n_reduced = 0;
  ReductionSignature& signature = plan.signature;
  signature.args.resize(n_all);
  for (std::size_t k = 0; k < n_all; ++k) {
    const bool input = k < n_in;
    plan.operands[k] = input ? args[k] : KernelArg{&outputs[k - n_in], {}};
    signature.args[k] = arg_signature(input ? spec.in[k] : spec.out[k - n_in], plan.operands[k], signature.bindings);
    if (signature.args[k].kind != ArgKind::array) continue;
    const ArrayCore& a = *plan.operands[k].array;
    if (input) {
      split_strides(plan.axes, broadcast_strides(a.shape(), a.strides(), plan.shape), plan.kept_strides[k],
                    plan.reduced_strides[k]);
      reduced_list[n_reduced++] = &plan.reduced_strides[k];
    } else {
      plan.kept_strides[k] = output_kept_strides(plan.axes, a.strides(), keepdims);
    }
    kept_list[n_kept++] = &plan.kept_strides[k];
  }
  if (spec.options.reduce_dims) {
    squash_axes(plan.axes.kept, std::span(kept_list.data(), n_kept));
    if (numel(plan.axes.reduced) > 0) squash_axes(plan.axes.reduced, std::span(reduced_list.data(), n_reduced));
  }
  signature.kept_ndim = plan.axes.kept.ndim();
  signature.reduced_ndim = plan.axes.reduced.ndim();
}

std::shared_ptr<const CompiledModule> kernel_for(ReductionKernelState& state, Device device,
                                                 const ReductionSignature& signature) {
  SignatureKey key;
  add_to_key(key, device, signature.args);
  key.add(signature.kept_ndim);
  key.add(signature.reduced_ndim);
  const KernelTarget target = compiler_for(device).kernel_target();
  // The block size is compiled into GPU reductions only.
  key.add(target == KernelTarget::cuda ? signature.block_size >> 4 : 0);
  key.add(target == KernelTarget::cuda ? signature.block_size & 15 : 0);
  return state.memo.get(key, [&] {
    const std::string& name = state.spec.name;
    if (target != KernelTarget::cuda)
      observe_cuda_source(name, [&] { return reduction_source(state.spec, signature, KernelTarget::cuda); });
    return compile_kernel(device, name, reduction_source(state.spec, signature, target), KernelKind::reduction);
  });
}

void launch_reduction(const KernelReduction& plan, std::size_t n_in, const CompiledModule& kernel, const Exec& exec) {
  const ReductionSignature& signature = plan.signature;
  KernelArguments arguments;
  for (std::size_t k = 0; k < signature.args.size(); ++k) {
    const ArgSignature& s = signature.args[k];
    const ArrayCore* array = plan.operands[k].array;
    if (s.kind != ArgKind::array) add_raw_or_scalar(arguments, plan.operands[k], s);
    else if (k < n_in) arguments.add_strided(array->raw_data(), plan.kept_strides[k], &plan.reduced_strides[k]);
    else arguments.add_strided(array->raw_data(), plan.kept_strides[k]);
  }
  arguments.add_shape(plan.axes.kept);
  arguments.add_shape(plan.axes.reduced);
  order_access(exec, std::span(plan.operands.data(), signature.args.size()));
  kernel.launch({.args = arguments.pointers(),
                 .work = numel(plan.axes.kept),
                 .reduced = numel(plan.axes.reduced),
                 .block = signature.block_size},
                exec);
}

}  // namespace

}  // namespace detail

ReductionKernel::ReductionKernel(std::string_view in_params, std::string_view out_params, std::string_view map_expr,
                                 std::string_view reduce_expr, std::string_view post_map_expr,
                                 std::string_view identity, std::string_view name, KernelOptions options)
    : state_(std::make_shared<detail::ReductionKernelState>()) {
  using namespace detail;
  ReductionSpec& spec = state_->spec;
  set_signature(spec, name, in_params, out_params, kReductionReservedNames, std::move(options));
  XP_CHECK(!spec.out.empty(), ValueError, "reduction kernel ", name, " needs an output parameter");
  spec.map_expr = map_expr;
  spec.reduce_expr = reduce_expr;
  spec.post_map_expr = post_map_expr;
  spec.identity = identity;
  block_size_of({}, spec.options, 256);
}

const std::string& ReductionKernel::name() const noexcept { return state_->spec.name; }
std::size_t ReductionKernel::cached_kernels() const { return state_->memo.size(); }

std::vector<ndarray<>> ReductionKernel::launch(std::span<const detail::KernelArg> args,
                                               const detail::KernelCall& call) const {
  using namespace detail;
  const ReductionSpec& spec = state_->spec;
  const profile_range profiled(spec.name);
  const int block = block_size_of(call, spec.options, 256);
  XP_CHECK(!call.size, ValueError, spec.name, ": 'size' is for elementwise kernels");
  CallArguments checked = check_call(spec.name, spec.in, spec.out, args, call.stream);
  KernelReduction plan;
  plan.shape = input_shape(spec, args);
  plan.axes = split_reduction_axes(spec.name, plan.shape, call.axes, call.keepdims);
  std::vector<ndarray<>> outputs = bind_outputs(spec, checked, plan.axes.out_shape);
  // As the built-in max and min: checked even when there is no output.
  XP_CHECK(numel(plan.axes.reduced) > 0 || !spec.identity.empty(), ValueError,
           "zero-size array to reduction operation ", spec.name, " which has no identity");
  if (numel(plan.axes.kept) == 0) return outputs;

  plan.signature.bindings = std::move(checked.bindings);
  plan.signature.block_size = block;
  plan_operands(spec, args, outputs, call.keepdims, plan);
  const std::shared_ptr<const CompiledModule> kernel = kernel_for(*state_, checked.exec.device, plan.signature);
  launch_reduction(plan, spec.in.size(), *kernel, checked.exec);
  return outputs;
}

}  // namespace xp
