// Writes the fixture's arrays (tests/mxnet/fixture_values.hpp) with xp::save into the file named by its
// argument, for MXNet to read back (tests/mxnet/check_params.py, run by scripts/bench.sh).
#include <cstdio>

#include "fixture_values.hpp"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: xp_write_params FILE\n");
    return 2;
  }
  xp::save(argv[1], mxnet_fixture_arrays());
  return 0;
}
