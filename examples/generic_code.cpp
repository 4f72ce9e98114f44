// Generic code, written once: the same function templates run on every device there is. In CUDA
// builds this file is compiled by nvcc, so their GPU versions exist; they run where a GPU is present.
#include <thrust/functional.h>
#include <thrust/sort.h>

#include <iostream>
#include <vector>

#include "xp/thrust.hpp"
#include "xp/xp.hpp"

namespace {

// softplus(x) = log(1 + exp(x)), stable for large x: max(x, 0) + log1p(exp(-|x|)).
struct Softplus {
  template <class T>
  XP_HOST_DEVICE T operator()(T x) const {
    const T magnitude = x < 0 ? -x : x;
    return (x > 0 ? x : T(0)) + std::log1p(std::exp(-magnitude));
  }
};

template <class T>
xp::ndarray<T> softplus(const xp::ndarray<T>& x) {
  return xp::transform(Softplus{}, x);
}

// The same with the module of the operands (CuPy's get_array_module style).
template <class T>
xp::ndarray<T> softplus_with_module(const xp::ndarray<T>& x) {
  const auto m = xp::get_array_module(x);
  return m.maximum(x, T(0)) + m.log1p(m.exp(-m.abs(x)));
}

// Sorts in place, largest first, with Thrust on whichever backend holds the array.
template <class T>
void sort_descending(const xp::ndarray<T>& a) {
  xp::visit_backend(a.device(), [&](auto backend) {
    thrust::sort(xp::execution_policy(backend), a.data(), a.data() + a.size(), thrust::greater<T>());
  });
}

void run_on(xp::Device device) {
  xp::random::seed(3);
  const auto x = xp::random::normal<float>(0, 4, {8}, device);
  const auto y = softplus(x);
  const auto max_difference = xp::max(xp::abs(y - softplus_with_module(x))).item();
  sort_descending(y);
  std::cout << "on " << device << ": softplus of N(0, 4) samples, sorted by Thrust, largest first\n"
            << y << "\n(transform and module versions agree to " << max_difference << ")\n";
}

}  // namespace

int main() {
  std::vector<xp::Device> devices{xp::cpu(0)};
  for (int id = 0; id < xp::num_gpus(); ++id) devices.push_back(xp::gpu(id));
  if (xp::num_gpus() == 0) std::cout << "(no GPU here: the GPU versions are compiled but not run)\n";
  for (xp::Device device : devices) run_on(device);
}
