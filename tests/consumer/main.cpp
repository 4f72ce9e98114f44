#include <xp/xp.hpp>

#include <iostream>
#include <vector>

int main() {
  const auto x = xp::array<float>({1, 2, 3});
  const auto y = x.copyto(xp::cpu(1));
  std::cout << y << "\n";
  const bool ok = y.to_vector() == std::vector<float>{1, 2, 3} && y.device() == xp::cpu(1);
  std::cout << (ok ? "consumer: ok" : "consumer: WRONG VALUES") << "\n";
  return ok ? 0 : 1;
}
