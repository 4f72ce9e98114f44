#include <xp/thrust.hpp>
#include <xp/xp.hpp>

#include <thrust/reduce.h>

#include <iostream>

int main() {
  const auto x = xp::array<int>({1, 2, 3, 4});
  const int sum = thrust::reduce(xp::execution_policy(xp::cpu_backend{}), x.data(), x.data() + x.size());
  std::cout << (sum == 10 ? "consumer_thrust: ok" : "consumer_thrust: WRONG SUM") << "\n";
  return sum == 10 ? 0 : 1;
}
