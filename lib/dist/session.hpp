#pragma once
// The state of xp::dist between init and finalize, shared by its calls.
#include <mpi.h>

#include <map>
#include <memory>
#include <mutex>

#include "dist/mpi_process_group.hpp"
#include "dist/watchdog.hpp"
#include "support/collectives.hpp"
#include "support/process_group.hpp"

namespace xp::dist::detail {

struct Session {
  MPI_Comm comm = MPI_COMM_NULL;  // a duplicate of MPI_COMM_WORLD, returning errors
  bool owns_mpi = false;  // init started MPI, so finalize ends it
  int rank = 0, size = 1, local_rank = 0;
  std::mutex mutex;  // MPI_THREAD_SERIALIZED: our MPI calls take turns
  std::unique_ptr<Watchdog> watchdog;
  MpiProcessGroup group;  // registered for the kvstore and the Trainer while the session lasts
  // Each GPU's NCCL communicator across the processes (by device id), joined at its first collective.
  std::map<int, std::unique_ptr<xp::detail::Communicator>> gpu_groups;
  // Sums of float16 and bfloat16 (sent as MPI_UINT16_T): in float32, each pairwise result rounded once.
  MPI_Op float16_sum = MPI_OP_NULL, bfloat16_sum = MPI_OP_NULL;
};

// Creates the session's sums of 2-byte floats; frees them.
void create_two_byte_sums(Session& s);
void free_two_byte_sums(Session& s);

// The session; RuntimeError naming `caller` when xp::dist::init has not run.
Session& session(const char* caller);

// MpiError naming the call unless rc is MPI_SUCCESS.
void check_mpi(int rc, const char* call);

}  // namespace xp::dist::detail
