// xp::fuse (fuse.hpp): a fused function's traces by binding, and their runs on each device.
#include "xp/fuse.hpp"

#include <array>
#include <mutex>
#include <vector>

#include "api/jit/fused_host_reduction.hpp"
#include "api/jit/fused_host_run.hpp"
#include "core/fusion_graph.hpp"
#include "core/kernel_params.hpp"
#include "core/layout.hpp"
#include "xp/profile.hpp"
#include "xp/user_kernel.hpp"

namespace xp::detail {

namespace {

// One binding of dtypes and ranks, traced.
struct Trace {
  std::vector<xp::dtype> types;
  std::vector<int> ndims;
  std::shared_ptr<FusionGraph> graph;
  std::vector<int> order;  // graph->evaluation_order()
  HostBlockLayout layout;
  std::once_flag printed;
  const ElementwiseKernel* gpu_kernel = nullptr;  // printed from the trace at the first GPU run
};

bool binds(const Trace& trace, std::span<const ArrayCore* const> arrays) {
  for (std::size_t k = 0; k < arrays.size(); ++k)
    if (trace.types[k] != arrays[k]->dtype() || trace.ndims[k] != arrays[k]->ndim()) return false;
  return true;
}

std::shared_ptr<Trace> trace_binding(std::string_view name, std::span<const ArrayCore* const> arrays,
                                     FusedTracer tracer, const void* function) {
  auto trace = std::make_shared<Trace>();
  trace->graph = std::make_shared<FusionGraph>();
  std::vector<TracedValue> arguments;
  for (const ArrayCore* a : arrays) {
    trace->types.push_back(a->dtype());
    trace->ndims.push_back(a->ndim());
    arguments.emplace_back(trace->graph, trace->graph->add_parameter(a->dtype()), a->dtype(), a->ndim());
  }
  const TracedValue result = tracer(function, arguments);
  XP_CHECK(result.graph() == trace->graph, ValueError, "xp::fuse: ", name,
           " returned a value that does not come from its arguments");
  trace->graph->set_output(result.node());
  trace->order = trace->graph->evaluation_order();
  trace->layout = host_block_layout(*trace->graph, trace->order);
  return trace;
}

}  // namespace

struct FusedKernels::State {
  std::string name;
  std::mutex mutex;
  std::vector<std::shared_ptr<Trace>> traces;

  std::shared_ptr<Trace> trace_for(std::span<const ArrayCore* const> arrays, FusedTracer tracer, const void* function) {
    {
      const std::lock_guard lock(mutex);
      for (const auto& trace : traces)
        if (binds(*trace, arrays)) return trace;
    }
    std::shared_ptr<Trace> made = trace_binding(name, arrays, tracer, function);  // the user's code: not under the lock
    const std::lock_guard lock(mutex);
    for (const auto& trace : traces)
      if (binds(*trace, arrays)) return trace;
    return traces.emplace_back(std::move(made));
  }
};

FusedKernels::FusedKernels(std::string name) : state_(std::make_shared<State>()) {
  check_kernel_name(name);
  state_->name = std::move(name);
}

std::size_t FusedKernels::traced_bindings() const {
  const std::lock_guard lock(state_->mutex);
  return state_->traces.size();
}

ArrayCore FusedKernels::run(std::span<const ArrayCore* const> arrays, FusedTracer tracer, const void* function) const {
  const profile_range profiled(state_->name);
  XP_CHECK(arrays.size() <= kMaxFusedArguments, ValueError, "xp::fuse: ", state_->name, " takes ", arrays.size(),
           " arrays (at most ", kMaxFusedArguments, ")");
  const std::shared_ptr<Trace> trace = state_->trace_for(arrays, tracer, function);
  const FusionGraph& graph = *trace->graph;
  const Device device = common_device(state_->name, arrays);
  const FusionNode& output = graph.nodes()[static_cast<std::size_t>(graph.output())];
  ArrayCore result;
  if (output.parameter >= 0) {  // no operation: the argument itself (copied, unless it is reduced)
    const ArrayCore& argument = *arrays[static_cast<std::size_t>(output.parameter)];
    result = graph.reduction() ? argument : copy_to(argument, device);
  } else if (device.type() != DeviceType::gpu) {
    std::array<const Shape*, kMaxFusedArguments> shapes;  // the first arrays.size() are set
    for (std::size_t k = 0; k < arrays.size(); ++k) shapes[k] = &arrays[k]->shape();
    const Shape shape = broadcast_shapes(state_->name, std::span(shapes.data(), arrays.size()));
    if (reduces_in_one_pass(graph, trace->order, shape, kernels_for(device)))
      return reduce_fused_on_host(graph, trace->order, trace->layout, arrays, shape, exec_on(device));
    result = run_fused_on_host(graph, trace->order, trace->layout, arrays, shape, exec_on(device));
  } else {
    std::call_once(trace->printed, [&] {
      const FusedSource source = fused_elementwise_source(graph);
      KernelOptions options;
      options.preamble = source.preamble;
      trace->gpu_kernel =
          &xp::elementwise(source.in_params, source.out_params, source.operation, state_->name, options);
    });
    std::vector<KernelArg> args;
    for (const ArrayCore* a : arrays) args.push_back({a, {}});
    result = trace->gpu_kernel->launch_one(args, {});
  }
  if (const auto& r = graph.reduction()) return reduce(r->reduction, result, r->axes, r->keepdims, r->ddof);
  return result;
}

}  // namespace xp::detail
