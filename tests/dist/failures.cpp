// Ranks that fail their job, for expect_timeout.sh: the others must end, naming the problem, within
// the timeout (XP_DIST_TIMEOUT) instead of waiting forever.
//   failures finish-early: rank 1 stops after one allreduce, the others go on to a second
//   failures killed:       rank 1 is killed (SIGKILL) after one allreduce
#include <csignal>
#include <cstdio>
#include <cstring>

#include "xp/creation.hpp"
#include "xp/dist.hpp"

int main(int argc, char** argv) {
  xp::dist::init(argc, argv);
  const bool killed = argc > 1 && std::strcmp(argv[1], "killed") == 0;
  auto a = xp::ones<float>({1000}, xp::cpu(0));
  xp::dist::allreduce({a});
  if (xp::dist::rank() == 1) {
    if (killed) std::raise(SIGKILL);
    xp::dist::finalize();  // one step short of the others
    return 0;
  }
  xp::dist::allreduce({a});
  std::printf("rank %d: the second allreduce completed, which it must not\n", xp::dist::rank());
  xp::dist::finalize();
  return 0;
}
