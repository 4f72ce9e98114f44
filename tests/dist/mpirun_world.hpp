// The number of processes mpirun started, read from its environment: doctest's decorators are evaluated
// before main starts MPI, so a case that needs several processes (or one GPU each) asks mpirun.
#pragma once

#include <cstdlib>

inline int mpirun_world_size() {
  const char* size = std::getenv("OMPI_COMM_WORLD_SIZE");
  return size != nullptr ? std::atoi(size) : 1;
}
