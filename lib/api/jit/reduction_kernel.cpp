// xp::ReductionKernel: CuPy's rules for one call (broadcast inputs, axes, keepdims, outputs), then
// the compiled kernel for its signature, run over outputs or, for one output, over parts of it.
#include <algorithm>
#include <array>
#include <vector>

#include "api/array/array_factory.hpp"
#include "api/array/backends.hpp"
#include "api/jit/user_kernel_call.hpp"
#include "core/layout.hpp"
#include "xp/profile.hpp"

namespace xp {

namespace detail {

struct ReductionKernelState {
  ReductionSpec spec;
  KernelMemo memo;
};

namespace {}  // namespace

}  // namespace detail

ReductionKernel::ReductionKernel(std::string_view in_params, std::string_view out_params, std::string_view map_expr,
                                 std::string_view reduce_expr, std::string_view post_map_expr,
                                 std::string_view identity, std::string_view name, KernelOptions options)
    : state_(std::make_shared<detail::ReductionKernelState>()) {
  using namespace detail;
  ReductionSpec& spec = state_->spec;
  auto [in, out] = parse_kernel_signature(name, in_params, out_params, kReductionReservedNames);
  spec.in = std::move(in);
  spec.out = std::move(out);
  XP_CHECK(!spec.out.empty(), ValueError, "reduction kernel ", name, " needs an output parameter");
  spec.map_expr = map_expr;
  spec.reduce_expr = reduce_expr;
  spec.post_map_expr = post_map_expr;
  spec.identity = identity;
  spec.name = name;
  spec.options = std::move(options);
  block_size_of({}, spec.options, 256);
}

const std::string& ReductionKernel::name() const noexcept { return state_->spec.name; }
std::size_t ReductionKernel::cached_kernels() const { return state_->memo.size(); }

std::vector<ndarray<>> ReductionKernel::launch(std::span<const detail::KernelArg> args,
                                               const detail::KernelCall& call) const {
  using namespace detail;
  const ReductionSpec& spec = state_->spec;
  const std::string& name = spec.name;
  const profile_range profiled(name);
  const int block = block_size_of(call, spec.options, 256);
  XP_CHECK(!call.size, ValueError, name, ": 'size' is for elementwise kernels");
  CallArguments checked = check_call(name, spec.in, spec.out, args, call.stream);
  const std::size_t n_in = spec.in.size();

  // The inputs' broadcast shape, split into kept and reduced axes.
  std::array<const Shape*, kMaxKernelParams> shapes;  // the first `broadcast` are set
  std::size_t broadcast = 0;
  for (std::size_t k = 0; k < n_in; ++k)
    if (args[k].array && !spec.in[k].raw) shapes[broadcast++] = &args[k].array->shape();
  XP_CHECK(broadcast > 0, ValueError, "Loop size is undecided.");
  const Shape shape = broadcast_shapes(name, std::span(shapes.data(), broadcast));
  const int ndim = shape.ndim();
  const std::array<bool, kMaxNdim> reduce = reduced_axes(name, call.axes, ndim);
  Shape out_shape, kept, reduced;
  for (int axis = 0; axis < ndim; ++axis) {
    if (reduce[axis]) {
      reduced.push_back(shape[axis]);
      if (call.keepdims) out_shape.push_back(1);
    } else {
      kept.push_back(shape[axis]);
      out_shape.push_back(shape[axis]);
    }
  }

  std::vector<ndarray<>> outputs;
  outputs.reserve(spec.out.size());
  for (std::size_t k = 0; k < spec.out.size(); ++k) {
    if (checked.out.empty()) {
      outputs.emplace_back(new_array(out_shape, param_dtype(spec.out[k], checked.bindings), checked.exec));
    } else {
      const ArrayCore& out = *checked.out[k].array;
      XP_CHECK(spec.out[k].raw || out.shape() == out_shape, ValueError, "Out shape is mismatched: ", spec.out[k].name,
               " has shape ", out.shape(), ", the reduction's is ", out_shape);
      outputs.emplace_back(out);
    }
  }
  const std::int64_t n_outputs = numel(kept), n_reduced = numel(reduced);
  // As the built-in max and min: checked even when there is no output.
  XP_CHECK(n_reduced > 0 || !spec.identity.empty(), ValueError, "zero-size array to reduction operation ", name,
           " which has no identity");
  if (n_outputs == 0) return outputs;

  // Strides: a non-raw input's over the kept axes and over the reduced ones; an output's over the kept.
  const std::size_t n_all = n_in + spec.out.size();
  std::array<KernelArg, kMaxKernelParams> operands;  // one per argument, set below
  std::array<Strides, kMaxKernelParams> kept_strides, reduced_strides;
  std::array<Strides*, kMaxKernelParams> kept_list, reduced_list;
  std::size_t n_kept = 0, n_red = 0;
  ReductionSignature signature;
  signature.bindings = std::move(checked.bindings);
  signature.block_size = block;
  signature.args.resize(n_all);
  for (std::size_t k = 0; k < n_all; ++k) {
    const bool input = k < n_in;
    operands[k] = input ? args[k] : KernelArg{&outputs[k - n_in], {}};
    signature.args[k] = arg_signature(input ? spec.in[k] : spec.out[k - n_in], operands[k], signature.bindings);
    if (signature.args[k].kind != ArgKind::array) continue;
    const ArrayCore& a = *operands[k].array;
    if (input) {
      const Strides full = broadcast_strides(a.shape(), a.strides(), shape);
      for (int axis = 0; axis < ndim; ++axis)
        (reduce[axis] ? reduced_strides[k] : kept_strides[k]).push_back(full[axis]);
      reduced_list[n_red++] = &reduced_strides[k];
    } else {
      int axis = 0;
      for (int d = 0; d < ndim; ++d) {
        if (!reduce[d]) kept_strides[k].push_back(a.strides()[axis]);
        if (!reduce[d] || call.keepdims) ++axis;
      }
    }
    kept_list[n_kept++] = &kept_strides[k];
  }
  if (spec.options.reduce_dims) {
    squash_axes(kept, std::span(kept_list.data(), n_kept));
    if (n_reduced > 0) squash_axes(reduced, std::span(reduced_list.data(), n_red));
  }
  signature.kept_ndim = kept.ndim();
  signature.reduced_ndim = reduced.ndim();

  SignatureKey key;
  add_to_key(key, checked.exec.device, signature.args);
  key.add(signature.kept_ndim);
  key.add(signature.reduced_ndim);
  const KernelTarget target = backend_for(checked.exec.device).kernel_target();
  // The block size is compiled into GPU reductions only.
  key.add(target == KernelTarget::cuda ? block >> 4 : 0);
  key.add(target == KernelTarget::cuda ? block & 15 : 0);
  const std::shared_ptr<const CompiledModule> kernel = state_->memo.get(key, [&] {
    if (target != KernelTarget::cuda)
      observe_cuda_source(name, [&] { return reduction_source(spec, signature, KernelTarget::cuda); });
    return compile_kernel(checked.exec.device, name, reduction_source(spec, signature, target), KernelKind::reduction);
  });

  KernelArguments arguments;
  for (std::size_t k = 0; k < n_all; ++k) {
    const ArgSignature& s = signature.args[k];
    if (s.kind != ArgKind::array) add_raw_or_scalar(arguments, operands[k], s);
    else if (k < n_in) arguments.add_strided(operands[k].array->raw_data(), kept_strides[k], &reduced_strides[k]);
    else arguments.add_strided(operands[k].array->raw_data(), kept_strides[k]);
  }
  arguments.add_shape(kept);
  arguments.add_shape(reduced);

  order_access(checked.exec, std::span(operands.data(), n_all));
  kernel->launch({.args = arguments.pointers(), .work = n_outputs, .reduced = n_reduced, .block = block}, checked.exec);
  return outputs;
}

}  // namespace xp
