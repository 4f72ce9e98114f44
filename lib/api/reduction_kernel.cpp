// xp::ReductionKernel: CuPy's rules for one call (broadcast inputs, axes, keepdims, outputs), then
// the compiled kernel for its signature, run over outputs or, for one output, over parts of it.
#include <algorithm>
#include <array>
#include <vector>

#include "api/array_factory.hpp"
#include "api/user_kernel_call.hpp"
#include "core/layout.hpp"
#include "xp/detail/parallel_for.hpp"

namespace xp {

namespace detail {

struct ReductionKernelState {
  ReductionSpec spec;
  KernelMemo memo;
};

namespace {

constexpr std::string_view kReservedNames[] = {"a", "b", "_i", "_j", "_J", "_in_ind", "_out_ind", "_r"};

using ReduceEntry = void (*)(void* const*, std::int64_t, std::int64_t, std::int64_t, std::int64_t, void*);
using FinishEntry = void (*)(void* const*, std::int64_t, const void*, int);

struct HostReduction {
  ReduceEntry entry;
  void* const* arguments;
  std::int64_t reduced = 0, parts = 1;
  char* partials = nullptr;
  std::size_t partial_size = 0;
};

void reduce_outputs(void* context, std::int64_t begin, std::int64_t end) {
  const auto& r = *static_cast<const HostReduction*>(context);
  r.entry(r.arguments, begin, end, 0, 0, nullptr);
}

void reduce_part(void* context, std::int64_t begin, std::int64_t end) {
  const auto& r = *static_cast<const HostReduction*>(context);
  for (std::int64_t part = begin; part < end; ++part)
    r.entry(r.arguments, 0, 1, r.reduced * part / r.parts, r.reduced * (part + 1) / r.parts,
            r.partials + part * static_cast<std::int64_t>(r.partial_size));
}

}  // namespace

}  // namespace detail

ReductionKernel::ReductionKernel(std::string_view in_params, std::string_view out_params, std::string_view map_expr,
                                 std::string_view reduce_expr, std::string_view post_map_expr,
                                 std::string_view identity, std::string_view name, KernelOptions options)
    : state_(std::make_shared<detail::ReductionKernelState>()) {
  using namespace detail;
  ReductionSpec& spec = state_->spec;
  auto [in, out] = parse_kernel_signature(name, in_params, out_params, kReservedNames);
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
      XP_CHECK(spec.out[k].raw || out.shape() == out_shape, ValueError, "Out shape is mismatched: ",
               spec.out[k].name, " has shape ", out.shape(), ", the reduction's is ", out_shape);
      outputs.emplace_back(out);
    }
  }
  const std::int64_t n_outputs = numel(kept), n_reduced = numel(reduced);
  if (n_outputs == 0) return outputs;
  XP_CHECK(n_reduced > 0 || !spec.identity.empty(), ValueError, "zero-size array to reduction operation ", name,
           " which has no identity");

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
      for (int axis = 0; axis < ndim; ++axis) (reduce[axis] ? reduced_strides[k] : kept_strides[k]).push_back(full[axis]);
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
  key.add(checked.exec.device.is_host() ? 0 : block >> 4);
  key.add(checked.exec.device.is_host() ? 0 : block & 15);
  const std::shared_ptr<const CompiledKernel> kernel = state_->memo.get(key, [&] {
    if (checked.exec.device.is_host())
      observe_cuda_source(name, [&] { return reduction_source(spec, signature, KernelTarget::cuda); });
    const auto target = checked.exec.device.is_host() ? KernelTarget::cpu : KernelTarget::cuda;
    return compile_kernel(checked.exec.device, name, reduction_source(spec, signature, target), true);
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
  if (!checked.exec.device.is_host()) {
    const auto blocks = static_cast<unsigned>(std::min<std::int64_t>(n_outputs, 1 << 20));
    kernel->cuda->launch(checked.exec.stream, 0, block, blocks, arguments.pointers());
    return outputs;
  }
  HostReduction host{reinterpret_cast<ReduceEntry>(kernel->entry), arguments.pointers()};
  if (n_outputs > 1 || n_reduced < 2 * kParallelGrain) {
    // Whole outputs per thread, enough of them that each thread has a grain of elements.
    const std::int64_t grain = std::max<std::int64_t>(1, kParallelGrain / std::max<std::int64_t>(n_reduced, 1));
    parallel_for(n_outputs, grain, reduce_outputs, &host);
    return outputs;
  }
  // One output: one part per thread, then the parts combined in order.
  host.reduced = n_reduced;
  host.parts = std::min<std::int64_t>(cpu_threads(), n_reduced / kParallelGrain);
  host.partial_size = kernel->partial_size;
  std::vector<std::max_align_t> storage((host.parts * host.partial_size + sizeof(std::max_align_t) - 1) /
                                        sizeof(std::max_align_t));
  host.partials = reinterpret_cast<char*>(storage.data());
  parallel_for(host.parts, 1, reduce_part, &host);
  reinterpret_cast<FinishEntry>(kernel->finish)(arguments.pointers(), 0, host.partials, static_cast<int>(host.parts));
  return outputs;
}

}  // namespace xp
