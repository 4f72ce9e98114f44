#pragma once
/// \file
/// Processes of one job (API §8f; MXNet's dist kvstore, Horovod's hvd.*): MPI between processes, and
/// NCCL for GPU arrays (one process per GPU; the communicator's id travels over MPI).
/// Link xp::dist, built when CMake finds MPI (XP_MPI=AUTO|ON|OFF); `<xp/dist.hpp>` itself needs no MPI.
///
/// \code{.cpp}
///   int main(int argc, char** argv) {
///     xp::dist::init(argc, argv);          // mpirun -np 4 ./train
///     xp::dist::allreduce(gradients);      // in place: every process ends with the sum of all of them
///     xp::dist::finalize();
///   }
/// \endcode
///
/// Threads: init asks MPI for MPI_THREAD_SERIALIZED (and fails, naming both levels, on less). xp::dist
/// may be called from any thread; its MPI calls take turns under one lock of its own, on a duplicate of
/// MPI_COMM_WORLD (the program's own MPI traffic never meets ours).
///
/// Bounded waits: every process must make the same calls, with arrays of the same dtypes and sizes, in
/// the same order. A call that has not completed within timeout() (60 s; XP_DIST_TIMEOUT=seconds, or
/// set_timeout) because another rank died, finished early or called something else ends this process
/// with exit status kTimeoutExitStatus after writing to stderr which call, the how-manyth, and this
/// rank: MPI's blocking collectives cannot be abandoned and resumed, so the job cannot go on.
#include <chrono>
#include <cstddef>
#include <string>
#include <vector>

#include "xp/error.hpp"
#include "xp/export.hpp"
#include "xp/ndarray.hpp"

namespace xp::dist {

/// The exit status of a process whose collective outlived timeout() (as timeout(1)'s).
inline constexpr int kTimeoutExitStatus = 124;
/// Arrays of one device and dtype are summed in buckets of up to this many bytes, one collective each
/// (PyTorch DDP's 25 MiB).
inline constexpr std::size_t kBucketBytes = std::size_t{25} << 20;

/// A failed MPI call: names the call and MPI's error string.
class XP_API MpiError : public Error {
 public:
  /// The message names the call and MPI's error string.
  MpiError(std::string call, int code, const std::string& description);
  const std::string& call() const noexcept { return call_; }  ///< the MPI function that failed
  int code() const noexcept { return code_; }  ///< its error code

 private:
  std::string call_;
  int code_;
};

/// Starts MPI (or joins an MPI the program started, which it then finalizes itself). Once per process;
/// RuntimeError when already initialized.
XP_API void init(int& argc, char**& argv);
/// Waits for every rank (bounded), then ends MPI if init started it. RuntimeError when not initialized.
XP_API void finalize();
/// Whether init has run and finalize has not.
XP_API bool initialized() noexcept;

/// The calling process among all (rank, size) and among those on its node (local_rank: the GPU a
/// one-process-per-GPU job gives it). RuntimeError when not initialized.
XP_API int rank();
/// The number of processes.
XP_API int size();
/// The process's rank among those on its node.
XP_API int local_rank();

/// Waits until every process arrives (bounded by timeout()).
XP_API void barrier();
/// Sums every array over the processes, in place (bool: logical or, as NumPy's bool sum). Arrays of one
/// device and dtype are fused into buckets of kBucketBytes: arrays that lie back to back in one buffer
/// are summed where they are, others through a bucket buffer. Host arrays: MPI_Allreduce; GPU arrays:
/// ncclAllReduce on the device's current stream, waited for (bool, int16 and uint16 through host memory).
XP_API void allreduce(const std::vector<ndarray<>>& arrays);
/// Every array takes root's values.
XP_API void broadcast(const std::vector<ndarray<>>& arrays, int root = 0);

/// How long a collective may wait for the other processes before the job is ended.
XP_API std::chrono::duration<double> timeout() noexcept;
/// Sets timeout() (XP_DIST_TIMEOUT's seconds otherwise).
XP_API void set_timeout(std::chrono::duration<double> limit);

}  // namespace xp::dist
