// The registry of what serves each device type: operations reach the device kernels, runtime,
// collectives and kernel compiler through it, and a ScopedServices fake replaces only the parts it
// names, for its scope.
#include <doctest/doctest.h>

#include <vector>

#include "core/device_kernels.hpp"
#include "core/device_registry.hpp"
#include "core/kernel_compiler.hpp"
#include "xp/creation.hpp"
#include "xp/error.hpp"
#include "xp/math.hpp"

namespace {

// The CPU's device kernels, counting the calls that reach them.
class CountingKernels final : public xp::detail::DeviceKernels {
 public:
  explicit CountingKernels(xp::detail::DeviceKernels& real) : real_(real) {}
  int fills = 0, elementwise_calls = 0;

  void copy_cast(const xp::detail::StridedView& src, const xp::detail::StridedView& dst,
                 const xp::detail::Exec& exec) override {
    real_.copy_cast(src, dst, exec);
  }
  void fill(const xp::detail::StridedView& dst, const void* value, const xp::detail::Exec& exec) override {
    ++fills;
    real_.fill(dst, value, exec);
  }
  void iota(const xp::detail::StridedView& dst, const xp::detail::IotaRange& range,
            const xp::detail::Exec& exec) override {
    real_.iota(dst, range, exec);
  }
  void random(void* out, std::int64_t size, xp::dtype type, const xp::detail::RandomCall& call,
              const xp::detail::Exec& exec) override {
    real_.random(out, size, type, call, exec);
  }
  void random_permutation(std::int64_t* out, std::int64_t n, const xp::detail::RandomCall& keys,
                          xp::MemoryPool& scratch, const xp::detail::Exec& exec) override {
    real_.random_permutation(out, n, keys, scratch, exec);
  }
  void elementwise(const xp::detail::ElementwiseCall& call, const xp::detail::ElementwisePlan& plan) override {
    ++elementwise_calls;
    real_.elementwise(call, plan);
  }
  // No serial loop: every elementwise call takes the planned path, through elementwise().
  SerialLoop serial_loop(xp::detail::ElementwiseOp, xp::dtype) const noexcept override { return nullptr; }
  void reduce(const xp::detail::ReductionCall& call, const xp::detail::ReductionPlan& plan) override {
    real_.reduce(call, plan);
  }
  void gemm(const xp::detail::GemmCall& call, const xp::detail::Exec& exec) override { real_.gemm(call, exec); }
  void solver(const xp::detail::SolverCall& call, const xp::detail::Exec& exec) override { real_.solver(call, exec); }
  void sort(const xp::detail::SortCall& call, const xp::detail::Exec& exec) override { real_.sort(call, exec); }
  void scan(const xp::detail::ScanCall& call, const xp::detail::Exec& exec) override { real_.scan(call, exec); }
  void gather(const xp::detail::GatherCall& call, const xp::detail::Exec& exec) override { real_.gather(call, exec); }
  void search(const xp::detail::SearchCall& call, const xp::detail::Exec& exec) override { real_.search(call, exec); }
  std::int64_t select(const xp::detail::SelectCall& call, const xp::detail::Exec& exec) override {
    return real_.select(call, exec);
  }
  void bincount(const xp::detail::BincountCall& call, const xp::detail::Exec& exec) override {
    real_.bincount(call, exec);
  }
  xp::detail::IndexFault gather_indexed(const xp::detail::IndexedCall& call, const xp::detail::Exec& exec) override {
    return real_.gather_indexed(call, exec);
  }
  xp::detail::IndexFault scatter_indexed(const xp::detail::IndexedCall& call, const xp::detail::Exec& exec) override {
    return real_.scatter_indexed(call, exec);
  }

 private:
  xp::detail::DeviceKernels& real_;
};

}  // namespace

TEST_CASE("ScopedServices: a fake serves its device type for its scope, the other parts stay") {
  xp::detail::DeviceKernels& real = xp::detail::kernels_for(xp::cpu(0));
  xp::detail::Runtime& runtime = xp::detail::runtime_for(xp::cpu(0));
  CountingKernels counting(real);
  {
    const xp::detail::ScopedServices fake(xp::DeviceType::cpu, {.kernels = &counting});
    CHECK(&xp::detail::kernels_for(xp::cpu(0)) == &counting);
    CHECK(&xp::detail::runtime_for(xp::cpu(0)) == &runtime);  // not named: kept
    CHECK(&xp::detail::kernels_for(xp::cpu_pinned(0)) == &real);  // another device type
    const auto a = xp::full<float>({3}, 2.0f), b = xp::full<float>({3}, 5.0f);
    const auto sum = xp::add(a, b);
    CHECK(counting.fills == 2);
    CHECK(counting.elementwise_calls == 1);
    CHECK(sum.to_vector() == std::vector<float>{7, 7, 7});
  }
  CHECK(&xp::detail::kernels_for(xp::cpu(0)) == &real);
  const auto c = xp::full<float>({2}, 1.0f);
  CHECK(counting.fills == 2);  // the fake is gone
  CHECK(c.to_vector() == std::vector<float>{1, 1});
}

TEST_CASE("the registry: host devices compile host kernels; a GPU without CUDA is NotImplementedError") {
  CHECK(xp::detail::compiler_for(xp::cpu(0)).kernel_target() == xp::detail::KernelTarget::cpu);
  if (xp::detail::device_registry::entries[static_cast<std::size_t>(xp::DeviceType::gpu)].runtime.load() == nullptr)
    CHECK_THROWS_AS(xp::detail::kernels_for(xp::gpu(0)), xp::NotImplementedError);
  else CHECK(xp::detail::compiler_for(xp::gpu(0)).kernel_target() == xp::detail::KernelTarget::cuda);
}
