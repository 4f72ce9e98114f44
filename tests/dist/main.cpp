// The xp::dist tests run in every process of an mpirun: MPI is up before the first case and down
// after the last, and every process runs the same cases in the same order (their collectives pair up).
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include "xp/dist.hpp"

int main(int argc, char** argv) {
  xp::dist::init(argc, argv);
  doctest::Context context(argc, argv);
  const int failed = context.run();
  xp::dist::finalize();
  return failed;
}
