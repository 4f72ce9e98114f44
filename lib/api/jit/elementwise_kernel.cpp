// xp::ElementwiseKernel: CuPy's rules for one call, then the compiled kernel for its signature.
#include <array>
#include <atomic>
#include <mutex>

#include "api/array/array_factory.hpp"
#include "api/array/device_services.hpp"
#include "api/jit/user_kernel_call.hpp"
#include "api/ops/loop_shape.hpp"
#include "core/layout.hpp"
#include "xp/profile.hpp"

namespace xp {

namespace detail {

namespace {

// What decides the kernel and the arguments of a call whose non-raw arrays are all C-contiguous
// with one shape (so that the loop is one contiguous run): the device, and each argument's kind and
// dtype (a raw array's rank and layout too).
struct CallFingerprint {
  Device device;
  std::size_t n_args = 0;
  std::array<std::uint32_t, kMaxKernelParams> codes;  // the first n_args are set

  friend bool operator==(const CallFingerprint& a, const CallFingerprint& b) noexcept {
    if (a.device != b.device || a.n_args != b.n_args) return false;
    for (std::size_t k = 0; k < a.n_args; ++k)
      if (a.codes[k] != b.codes[k]) return false;
    return true;
  }
};

// The plan of such a call: a call with its fingerprint needs no type binding, key or memo lookup.
// Immutable once made.
struct ContiguousPlan {
  CallFingerprint fingerprint;
  std::uint64_t generation;  // the memo's when the kernel was taken from it
  std::vector<ArgSignature> args;  // every argument, the outputs the call makes included
  std::shared_ptr<const CompiledModule> kernel;
};

}  // namespace

struct ElementwiseKernelState {
  ElementwiseSpec spec;
  KernelMemo memo;
  std::uint32_t raw_params = 0;  // bit k: parameter k (inputs, then outputs) is raw

  // The plan of the last call that had one. Plans live as long as the kernel, so that a caller may
  // use the one it loaded while another thread replaces it; one per distinct fingerprint and memo
  // generation, so a loop that alternates calls adds none.
  std::atomic<const ContiguousPlan*> last{nullptr};
  std::mutex plans_mutex;
  std::vector<std::unique_ptr<const ContiguousPlan>> plans;  // under plans_mutex

  void remember(ContiguousPlan plan) {
    const std::lock_guard lock(plans_mutex);
    for (const auto& kept : plans) {
      if (kept->fingerprint == plan.fingerprint && kept->generation == plan.generation) {
        last.store(kept.get(), std::memory_order_release);
        return;
      }
    }
    last.store(plans.emplace_back(std::make_unique<const ContiguousPlan>(std::move(plan))).get(),
               std::memory_order_release);
  }
};

namespace {

// The fingerprint of a call whose non-raw arrays share one C-contiguous shape of at least one
// element, and the shape; false for any other call (it takes the general path).
bool fingerprint_of(const ElementwiseSpec& spec, std::uint32_t raw_params, std::span<const KernelArg> args,
                    const KernelCall& call, CallFingerprint& fingerprint, const Shape*& shape) {
  const std::size_t n_in = spec.in.size();
  if (call.size || call.stream || (args.size() != n_in && args.size() != n_in + spec.out.size())) return false;
  shape = nullptr;
  const ArrayCore* first = nullptr;
  for (std::size_t k = 0; k < args.size(); ++k) {
    const ArrayCore* a = args[k].array;
    if (!a) {
      fingerprint.codes[k] = 1u << 24 | static_cast<std::uint32_t>(args[k].scalar.type) << 16;
      continue;
    }
    if (!first) first = a;
    if (a->device() != first->device()) return false;
    if (raw_params >> k & 1) {
      fingerprint.codes[k] = 2u << 24 | static_cast<std::uint32_t>(a->dtype()) << 16 |
                             static_cast<std::uint32_t>(a->ndim()) << 8 | (a->is_contiguous() ? 1u : 0u);
      continue;
    }
    if (!a->is_contiguous() || (shape && !(a->shape() == *shape))) return false;
    shape = &a->shape();
    fingerprint.codes[k] = 3u << 24 | static_cast<std::uint32_t>(a->dtype()) << 16;
  }
  if (!shape || (!spec.options.reduce_dims && shape->ndim() > 1) || numel(*shape) == 0) return false;
  fingerprint.device = first->device();
  fingerprint.n_args = args.size();
  return true;
}

// Runs the call with the kernel's last plan when the fingerprints match; false otherwise.
bool run_last_plan(ElementwiseKernelState& state, std::span<const KernelArg> args, const CallFingerprint& fingerprint,
                   const Shape& shape, int block, std::span<ndarray<>> outputs) {
  const ContiguousPlan* last = state.last.load(std::memory_order_acquire);
  if (!last || !(last->fingerprint == fingerprint) || last->generation != state.memo.generation()) return false;
  const Exec exec = exec_on(fingerprint.device);
  const std::size_t n_in = state.spec.in.size(), n_args = args.size();
  for (std::size_t k = n_in; k < n_args; ++k) outputs[k - n_in] = ndarray<>(*args[k].array);
  for (std::size_t k = n_args; k < last->args.size(); ++k)
    outputs[k - n_in] = ndarray<>(new_array(shape, last->args[k].type, exec));
  const std::int64_t size = numel(shape);
  KernelArguments arguments;
  for (std::size_t k = 0; k < last->args.size(); ++k) {
    const ArgSignature& s = last->args[k];
    if (k >= n_args) arguments.add_pointer(outputs[k - n_in].raw_data());  // made: never raw
    else if (s.kind == ArgKind::array) arguments.add_pointer(args[k].array->raw_data());
    else add_raw_or_scalar(arguments, args[k], s);
  }
  arguments.add_size(size);
  order_access(exec, args);  // the outputs it made are new
  last->kernel->launch({.args = arguments.pointers(), .work = size, .block = block}, exec);
  return true;
}

}  // namespace

}  // namespace detail

ElementwiseKernel::ElementwiseKernel(std::string_view in_params, std::string_view out_params,
                                     std::string_view operation, std::string_view name, KernelOptions options)
    : state_(std::make_shared<detail::ElementwiseKernelState>()) {
  using namespace detail;
  ElementwiseSpec& spec = state_->spec;
  set_signature(spec, name, in_params, out_params, kElementwiseReservedNames, std::move(options));
  spec.operation = operation;
  block_size_of({}, spec.options, 128);
  for (std::size_t k = 0; k < spec.in.size() + spec.out.size(); ++k) {
    const bool raw = k < spec.in.size() ? spec.in[k].raw : spec.out[k - spec.in.size()].raw;
    state_->raw_params |= static_cast<std::uint32_t>(raw) << k;
  }
}

const std::string& ElementwiseKernel::name() const noexcept { return state_->spec.name; }
std::size_t ElementwiseKernel::cached_kernels() const { return state_->memo.size(); }

namespace detail {

namespace {

const KernelParam& param_at(const ElementwiseSpec& spec, std::size_t k) {
  return k < spec.in.size() ? spec.in[k] : spec.out[k - spec.in.size()];
}

// A call's loop: the shape, every argument (the outputs the call makes included) with its
// signature, and each non-raw array's strides over the loop, axes merged as the built-ins' are.
struct KernelLoop {
  Shape shape;
  std::array<KernelArg, kMaxKernelParams> operands;  // the first signature.args.size() are set
  std::array<Strides, kMaxKernelParams> strides;  // set for non-raw arrays
  ElementwiseSignature signature;
};

// The outputs: given ones keep their shape (raw ones and sized loops any shape), the others are made.
void bind_outputs(const ElementwiseSpec& spec, const CallArguments& checked, const Shape& shape, bool sized,
                  std::span<ndarray<>> outputs) {
  for (std::size_t k = 0; k < spec.out.size(); ++k) {
    const KernelParam& param = spec.out[k];
    if (checked.out.empty()) {
      XP_CHECK(!param.raw || sized, ValueError, "Output array size is Undecided");
      outputs[k] = ndarray<>(new_array(shape, param_dtype(param, checked.bindings), checked.exec));
      continue;
    }
    const ArrayCore& out = *checked.out[k].array;
    XP_CHECK(param.raw || sized || out.shape() == shape, ValueError, "Out shape is mismatched: ", param.name,
             " has shape ", out.shape(), ", the loop ", shape);
    note_write(out);
    outputs[k] = ndarray<>(out);
  }
}

// Signatures and strides of every argument over loop.shape; then the axes merged (unless the
// kernel's options say not) and a 0-d loop made one element long, as the generator wants an axis.
void plan_operands(const ElementwiseSpec& spec, std::span<const KernelArg> args, std::span<ndarray<>> outputs,
                   std::size_t n_operands, KernelLoop& loop) {
  const std::size_t n_in = spec.in.size();
  std::array<Strides*, kMaxKernelParams> strided;
  std::size_t n_strided = 0;
  ElementwiseSignature& signature = loop.signature;
  signature.args.resize(n_operands);
  for (std::size_t k = 0; k < n_operands; ++k) {
    loop.operands[k] = k < args.size() ? args[k] : KernelArg{&outputs[k - n_in], {}};
    signature.args[k] = arg_signature(param_at(spec, k), loop.operands[k], signature.bindings);
    if (signature.args[k].kind != ArgKind::array) continue;
    const ArrayCore& a = *loop.operands[k].array;
    loop.strides[k] = broadcast_strides(a.shape(), a.strides(), loop.shape);
    strided[n_strided++] = &loop.strides[k];
  }
  const std::span<Strides* const> all(strided.data(), n_strided);
  if (spec.options.reduce_dims && loop.shape.ndim() > 0) squash_axes(loop.shape, all);
  if (loop.shape.ndim() == 0) {
    loop.shape = Shape(1);
    for (Strides* s : all) *s = Strides(1);
  }
  signature.loop_ndim = loop.shape.ndim();
  signature.contiguous = walks_with_unit_stride(loop.shape, std::span<const Strides* const>(strided.data(), n_strided));
}

std::shared_ptr<const CompiledModule> kernel_for(ElementwiseKernelState& state, Device device,
                                                 const ElementwiseSignature& signature) {
  SignatureKey key;
  add_to_key(key, device, signature.args);
  key.add(signature.loop_ndim);
  key.add(signature.contiguous);
  return state.memo.get(key, [&] {
    const std::string& name = state.spec.name;
    const KernelTarget target = compiler_for(device).kernel_target();
    if (target != KernelTarget::cuda)
      observe_cuda_source(name, [&] { return elementwise_source(state.spec, signature, KernelTarget::cuda); });
    return compile_kernel(device, name, elementwise_source(state.spec, signature, target), KernelKind::elementwise);
  });
}

void launch_loop(const KernelLoop& loop, const CompiledModule& kernel, const Exec& exec, int block) {
  const ElementwiseSignature& signature = loop.signature;
  KernelArguments arguments;
  for (std::size_t k = 0; k < signature.args.size(); ++k) {
    const ArgSignature& s = signature.args[k];
    if (s.kind != ArgKind::array) add_raw_or_scalar(arguments, loop.operands[k], s);
    else if (signature.contiguous) arguments.add_pointer(loop.operands[k].array->raw_data());
    else arguments.add_strided(loop.operands[k].array->raw_data(), loop.strides[k]);
  }
  const std::int64_t size = numel(loop.shape);
  if (signature.contiguous) arguments.add_size(size);
  else arguments.add_shape(loop.shape);
  order_access(exec, std::span(loop.operands.data(), signature.args.size()));
  kernel.launch({.args = arguments.pointers(), .work = size, .block = block}, exec);
}

// CuPy's rules for the call, the kernel for its signature from the memo, then the launch. A call
// with a fingerprint leaves its plan for the next one.
void plan_and_run(ElementwiseKernelState& state, std::span<const KernelArg> args, const KernelCall& call, int block,
                  const CallFingerprint* fingerprint, std::span<ndarray<>> outputs) {
  const ElementwiseSpec& spec = state.spec;
  CallArguments checked = check_call(spec.name, spec.in, spec.out, args, call.stream);
  std::array<const Shape*, kMaxKernelParams> shapes;  // the non-raw arrays', the first n_shapes
  std::size_t n_shapes = 0;
  for (std::size_t k = 0; k < args.size(); ++k)
    if (args[k].array && !param_at(spec, k).raw) shapes[n_shapes++] = &args[k].array->shape();
  KernelLoop loop;
  loop.shape = loop_shape(spec.name, std::span(shapes.data(), n_shapes), call.size);
  bind_outputs(spec, checked, loop.shape, call.size.has_value(), outputs);
  if (numel(loop.shape) == 0) return;

  loop.signature.bindings = std::move(checked.bindings);
  plan_operands(spec, args, outputs, args.size() + (checked.out.empty() ? spec.out.size() : 0), loop);
  const std::uint64_t generation = state.memo.generation();
  const std::shared_ptr<const CompiledModule> kernel = kernel_for(state, checked.exec.device, loop.signature);
  launch_loop(loop, *kernel, checked.exec, block);
  if (fingerprint && loop.signature.contiguous) {
    const std::span<const ArgSignature> planned = loop.signature.args;
    state.remember({*fingerprint, generation, {planned.begin(), planned.end()}, kernel});
  }
}

// Runs a call into `outputs`, one per output parameter: with the last plan when it fits.
void run(ElementwiseKernelState& state, std::span<const KernelArg> args, const KernelCall& call,
         std::span<ndarray<>> outputs) {
  const int block = block_size_of(call, state.spec.options, 128);
  CallFingerprint fingerprint;
  const Shape* contiguous_shape = nullptr;
  const bool plannable = fingerprint_of(state.spec, state.raw_params, args, call, fingerprint, contiguous_shape);
  if (!plannable || !run_last_plan(state, args, fingerprint, *contiguous_shape, block, outputs))
    plan_and_run(state, args, call, block, plannable ? &fingerprint : nullptr, outputs);
}

}  // namespace

}  // namespace detail

std::vector<ndarray<>> ElementwiseKernel::launch(std::span<const detail::KernelArg> args,
                                                 const detail::KernelCall& call) const {
  using namespace detail;
  const profile_range profiled(name());
  std::vector<ndarray<>> outputs(state_->spec.out.size());
  run(*state_, args, call, outputs);
  return outputs;
}

ndarray<> ElementwiseKernel::launch_one(std::span<const detail::KernelArg> args, const detail::KernelCall& call) const {
  using namespace detail;
  XP_CHECK(state_->spec.out.size() == 1, ValueError, "kernel ", name(), " has ", state_->spec.out.size(),
           " outputs: call outputs(...) to get all of them");
  const profile_range profiled(name());
  ndarray<> output;
  run(*state_, args, call, std::span(&output, 1));
  return output;
}

}  // namespace xp
