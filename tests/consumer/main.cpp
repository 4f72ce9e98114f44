#include <xp/xp.hpp>

#include <iostream>
#include <vector>

int main() {
  const auto x = xp::array<float>({1, 2, 3});
  const auto y = x.copyto(xp::cpu(1));
  std::cout << y << "\n";
  const auto fused = xp::fuse([](auto a, auto b) { return xp::sum(a * b + 1); });  // through the exported tracer
  const bool ok =
      y.to_vector() == std::vector<float>{1, 2, 3} && y.device() == xp::cpu(1) && fused(x, x).item<float>() == 17;
  std::cout << (ok ? "consumer: ok" : "consumer: WRONG VALUES") << "\n";
  return ok ? 0 : 1;
}
