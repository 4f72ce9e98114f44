#pragma once
// xp::fuse's printed kernel for a function of two arrays, as an ElementwiseKernel the tests can run on a
// CPU (the host compiler) and observe as the source a GPU would compile.
#include <memory>

#include "core/fusion_graph.hpp"
#include "xp/xp.hpp"

namespace xp_test {

template <class F>
xp::ElementwiseKernel printed_fusion(const F& function, const xp::ndarray<>& a, const xp::ndarray<>& b,
                                     const char* name) {
  const auto graph = std::make_shared<xp::detail::FusionGraph>();
  const xp::TracedValue x(graph, graph->add_parameter(a.dtype()), a.dtype(), a.ndim());
  const xp::TracedValue y(graph, graph->add_parameter(b.dtype()), b.dtype(), b.ndim());
  graph->set_output(function(x, y).node());
  const xp::detail::FusedSource source = xp::detail::fused_elementwise_source(*graph);
  xp::KernelOptions options;
  options.preamble = source.preamble;
  return xp::ElementwiseKernel(source.in_params, source.out_params, source.operation, name, options);
}

}  // namespace xp_test
