// The d2l chapter "GPU computing" (MXNet edition) in C++. It runs on gpu(0) and gpu(1) where there
// are GPUs; elsewhere cpu(1) and cpu(2) stand in for them: they are distinct devices, so every rule
// of the chapter (where arrays live, what copies and what shares, mismatches) holds the same way.
#include <xp/gluon.hpp>

#include <iostream>
#include <string>

namespace {

void section(const std::string& title) { std::cout << "\n== " << title << " ==\n"; }

template <class F>
void show_error(const std::string& what, F&& attempt) {
  try {
    attempt();
    std::cout << what << ": no error\n";
  } catch (const xp::Error& e) { std::cout << what << " -> " << e.what() << "\n"; }
}

}  // namespace

int main() {
  const int gpus = xp::num_gpus();
  const xp::Device first = gpus > 0 ? xp::gpu(0) : xp::cpu(1);
  const xp::Device second = gpus > 1 ? xp::gpu(1) : gpus > 0 ? xp::gpu(0) : xp::cpu(2);

  section("Computing devices");
  std::cout << xp::cpu() << ", " << xp::gpu() << ", " << xp::gpu(1) << "\n";
  std::cout << "built with CUDA: " << (xp::built_with_cuda() ? "yes" : "no") << ", GPUs: " << gpus << "\n";
  if (gpus == 0) std::cout << "no GPU here: " << first << " stands for gpu(0) and " << second << " for gpu(1)\n";

  section("NDArray on the GPU");
  const auto x = xp::array<float>({1, 2, 3});
  std::cout << "x = xp::array<float>({1, 2, 3})\n" << x << "\n";
  std::cout << "x.context() = " << x.context() << "\n";

  section("Storage on the GPU");
  const auto a = xp::array<float>({1, 2, 3}, first);
  std::cout << "a = xp::array<float>({1, 2, 3}, " << first << ")\n" << a << "\n";
  xp::random::seed(0);
  const auto B = xp::random::uniform<float>(0, 1, {2, 3}, second);
  std::cout << "B = xp::random::uniform<float>(0, 1, {2, 3}, " << second << ")\n" << B << "\n";
  const xp::MemoryInfo memory = first.memory_info();
  std::cout << first << " memory: " << memory.free / (1 << 20) << " MiB free of " << memory.total / (1 << 20)
            << " MiB\n";

  section("copyto and as_in_context");
  const auto y = x.copyto(first);
  std::cout << "y = x.copyto(" << first << ")\n" << y << "\n";
  const auto z = x.as_in_context(first);
  std::cout << "z = x.as_in_context(" << first << ")\n" << z << "\n";
  std::cout << "y.as_in_context(" << first << ") is y: " << std::boolalpha
            << y.as_in_context(first).shares_buffer_with(y) << "\n";
  std::cout << "y.copyto(" << first << ") is y: " << y.copyto(first).shares_buffer_with(y) << "\n";

  section("Transfers (chainer.cuda: to_gpu, to_cpu, copy)");
  if (gpus > 0) {
    const xp::Stream stream(xp::gpu(0));
    const auto on_gpu = xp::to_gpu(x, xp::gpu(0), &stream);
    std::cout << "xp::to_gpu(x, gpu(0), &stream)\n" << on_gpu << "\n";
    std::cout << "xp::to_cpu(...)\n" << xp::to_cpu(on_gpu, &stream) << "\n";
  } else {
    show_error("xp::to_gpu(x)", [&] { (void)xp::to_gpu(x); });
  }
  const xp::Stream stream(second);
  const auto big = xp::arange<float>(0, 1 << 20, 1, xp::cpu(0));
  const auto moved = xp::copy(big, second, &stream);
  xp::Event start, end;
  start.record(stream);
  xp::copy(big, moved, &stream);  // again, into the array the first copy made
  end.record(stream);
  end.synchronize();
  std::cout << "xp::copy of 2^20 floats from cpu(0) into an array on " << second << ": " << xp::elapsed_time(start, end)
            << " ms (events on a stream of " << second << "), last element " << static_cast<long>(moved(-1).item())
            << "\n";
  const auto out = xp::zeros<float>({3, 2}, second);
  xp::copy(B.transpose(), out);
  std::cout << "xp::copy(B.transpose(), out) with out on " << second << "\n" << out << "\n";

  section("Memory pools");
  xp::MemoryPool& pool = xp::get_default_memory_pool(second);
  std::cout << second << " pool: used " << pool.used_bytes() << " B, cached " << pool.free_bytes() << " B, total "
            << pool.total_bytes() << " B\n";
  { const auto scratch = xp::empty<float>({1 << 18}, second); }
  std::cout << "after a 1 MiB array came and went: cached " << pool.free_bytes() << " B\n";
  second.empty_cache();
  std::cout << second << ".empty_cache(): cached " << pool.free_bytes() << " B\n";

  section("Computation on the GPU");
  const auto result = (z + 2).exp() * y;
  std::cout << "(z + 2).exp() * y\n" << result << "\n";
  std::cout << "sum over it: " << result.sum().item() << ", on " << result.sum().device() << "\n";
  show_error("x + y with x on " + x.device().str() + " and y on " + y.device().str(), [&] { (void)(x + y); });
  show_error("x.copyto(y) across shapes", [&] { x.copyto(xp::zeros<float>({2}, first)); });
  show_error("copy on a stream of another device", [&] {
    const xp::Stream elsewhere(xp::cpu(3));
    (void)xp::copy(x, first, &elsewhere);
  });

  section("Gluon on the GPU");
  xp::nn::Sequential net;
  net.add(xp::nn::Dense(1));
  net.initialize(first);  // drawn once on cpu(0), then copied to the device
  std::cout << "net.initialize(" << first << ")\n" << net << "\n";
  std::cout << "net(y) with y on " << y.device() << "\n" << net(y) << "\n";
  std::cout << "after the first forward: " << net << "\n";
  const auto weight = net[0].weight().data();
  std::cout << "net[0].weight().data()\n" << weight << "\n";
  std::cout << "it lives on " << weight.device() << ", beside y\n";
  show_error("net[0].weight().data(" + xp::cpu(0).str() + ")", [&] { (void)net[0].weight().data(xp::cpu(0)); });
  show_error("net(x) with x on " + x.device().str(), [&] { (void)net(x); });
  return 0;
}
