// xp::dist::allreduce and broadcast: buckets of arrays, each one collective: MPI over host memory, NCCL
// (a communicator across the processes, its id broadcast over MPI) over GPU memory.
#include <algorithm>
#include <climits>
#include <cstdint>

#include "dist/buckets.hpp"
#include "dist/session.hpp"
#include "xp/creation.hpp"
#include "xp/dist.hpp"
#include "xp/index.hpp"
#include "xp/profile.hpp"

namespace xp::dist {

namespace {

MPI_Datatype mpi_type(xp::dtype type) {
  switch (type) {
    case xp::dtype::bool_: return MPI_C_BOOL;
    case xp::dtype::int8: return MPI_INT8_T;
    case xp::dtype::int16: return MPI_INT16_T;
    case xp::dtype::int32: return MPI_INT32_T;
    case xp::dtype::int64: return MPI_INT64_T;
    case xp::dtype::uint8: return MPI_UINT8_T;
    case xp::dtype::uint16: return MPI_UINT16_T;
    case xp::dtype::uint32: return MPI_UINT32_T;
    case xp::dtype::uint64: return MPI_UINT64_T;
    case xp::dtype::float32: return MPI_FLOAT;
    case xp::dtype::float64: return MPI_DOUBLE;
    case xp::dtype::complex64: return MPI_C_FLOAT_COMPLEX;
    case xp::dtype::complex128: return MPI_C_DOUBLE_COMPLEX;
    case xp::dtype::float16:
    case xp::dtype::bfloat16: return MPI_UINT16_T;  // MPI has no 2-byte floats: their bits, summed by our ops
  }
  throw ValueError("xp::dist: no MPI type for ", type);
}

MPI_Op sum_op(const detail::Session& s, xp::dtype type) {
  if (type == xp::dtype::bool_) return MPI_LOR;
  if (type == xp::dtype::float16) return s.float16_sum;
  if (type == xp::dtype::bfloat16) return s.bfloat16_sum;
  return MPI_SUM;
}

enum class Collective { allreduce, broadcast };

// Whether the members lie back to back in one device's memory, in order: then the bucket is their own
// memory.
bool back_to_back(const std::vector<ndarray<>>& arrays, const std::vector<std::size_t>& members) {
  const ndarray<>& first = arrays[members.front()];
  const auto* next = static_cast<const std::byte*>(first.raw_data());
  for (const std::size_t m : members) {
    const ndarray<>& a = arrays[m];
    if (!a.is_contiguous() || a.raw_data() != next) return false;
    next += a.size() * itemsize(a.dtype());
  }
  return true;
}

// Copies the bucket's arrays into `buffer`, back to back (into == true), or back out of it.
void move_through(const std::vector<ndarray<>>& arrays, const std::vector<std::size_t>& bucket, const ndarray<>& buffer,
                  bool into) {
  std::int64_t at = 0;
  for (const std::size_t m : bucket) {
    const auto n = static_cast<std::int64_t>(arrays[m].size());
    const ndarray<> place = buffer(slice(at, at + n)).reshape(arrays[m].shape());
    if (into) arrays[m].copyto(place);
    else place.copyto(arrays[m]);
    at += n;
  }
}

// One MPI call per at most INT_MAX elements (MPI counts are int).
void run_collective(detail::Session& s, Collective kind, void* data, std::int64_t count, xp::dtype type, int root,
                    DeviceType device_type) {
  const std::int64_t step = INT_MAX;
  for (std::int64_t done = 0; done < count; done += step) {
    const int n = static_cast<int>(std::min(step, count - done));
    void* at = static_cast<std::byte*>(data) + done * static_cast<std::int64_t>(itemsize(type));
    const char* call = kind == Collective::allreduce ? "MPI_Allreduce" : "MPI_Bcast";
    const detail::Watchdog::Guard guard(*s.watchdog, {call, n, static_cast<int>(type), static_cast<int>(device_type)});
    if (kind == Collective::allreduce)
      detail::check_mpi(MPI_Allreduce(MPI_IN_PLACE, at, n, mpi_type(type), sum_op(s, type), s.comm), call);
    else detail::check_mpi(MPI_Bcast(at, n, mpi_type(type), root, s.comm), call);
  }
}

// The GPU's communicator across the processes, joined the first time (every process at once): rank 0
// makes NCCL's id and broadcasts it over MPI.
xp::detail::Communicator& gpu_group(detail::Session& s, Device device) {
  std::unique_ptr<xp::detail::Communicator>& group = s.gpu_groups[device.id()];
  if (group) return *group;
  std::vector<std::byte> id = s.rank == 0 ? xp::detail::new_communicator_id(device) : std::vector<std::byte>();
  int length = static_cast<int>(id.size());
  {
    const detail::Watchdog::Guard guard(*s.watchdog, {"MPI_Bcast"});
    detail::check_mpi(MPI_Bcast(&length, 1, MPI_INT, 0, s.comm), "MPI_Bcast");
    id.resize(static_cast<std::size_t>(length));
    detail::check_mpi(MPI_Bcast(id.data(), length, MPI_BYTE, 0, s.comm), "MPI_Bcast");
  }
  const detail::Watchdog::Guard guard(*s.watchdog, {"ncclCommInitRank"});
  group = xp::detail::join_communicator(device, id, s.size, s.rank);
  return *group;
}

// One bucket of GPU arrays through NCCL, in place when they lie back to back, else through a bucket
// buffer on the GPU; waited for (under the watchdog) so that a stuck collective is bounded too.
void run_gpu_bucket(detail::Session& s, xp::detail::Communicator& group, Collective kind,
                    const std::vector<ndarray<>>& arrays, const std::vector<std::size_t>& bucket, std::int64_t total,
                    int root) {
  const ndarray<>& first = arrays[bucket.front()];
  const Device device = first.device();
  const bool in_place = back_to_back(arrays, bucket);
  const ndarray<> buffer = in_place ? first : xp::empty({total}, first.dtype(), device);
  if (!in_place) move_through(arrays, bucket, buffer, /*into=*/true);
  std::vector<const xp::detail::ArrayCore*> touched;
  for (const std::size_t m : bucket) touched.push_back(&arrays[m]);
  touched.push_back(&buffer);
  const xp::detail::Exec exec = xp::detail::ordered_exec(device, touched);
  const char* call = kind == Collective::allreduce ? "ncclAllReduce" : "ncclBroadcast";
  {
    const detail::Watchdog::Guard guard(
        *s.watchdog, {call, total, static_cast<int>(first.dtype()), static_cast<int>(DeviceType::gpu)});
    if (kind == Collective::allreduce) group.allreduce_sum(buffer.raw_data(), total, first.dtype(), exec);
    else group.broadcast(buffer.raw_data(), total, first.dtype(), root, exec);
    exec.stream.synchronize();
  }
  if (!in_place) move_through(arrays, bucket, buffer, /*into=*/false);
}

void run_buckets(const char* caller, Collective kind, const std::vector<ndarray<>>& arrays, int root) {
  const profile_range profiled(kind == Collective::allreduce ? "dist.allreduce" : "dist.broadcast");
  detail::Session& s = detail::session(caller);
  if (arrays.size() == 1 && !arrays.front().device().is_gpu() && back_to_back(arrays, {0})) {
    // One array in host memory: no plan to make.
    const ndarray<>& a = arrays.front();
    const std::lock_guard lock(s.mutex);
    run_collective(s, kind, a.raw_data(), static_cast<std::int64_t>(a.size()), a.dtype(), root, a.device().type());
    return;
  }
  std::vector<detail::BucketMember> members;
  for (const ndarray<>& a : arrays) members.push_back({a.device(), a.dtype(), a.size() * itemsize(a.dtype())});
  const std::lock_guard lock(s.mutex);
  for (const std::vector<std::size_t>& bucket : detail::plan_buckets(members, kBucketBytes)) {
    const ndarray<>& first = arrays[bucket.front()];
    std::int64_t total = 0;
    for (const std::size_t m : bucket) total += static_cast<std::int64_t>(arrays[m].size());
    const DeviceType device_type = first.device().type();
    if (first.device().is_gpu()) {
      xp::detail::Communicator& group = gpu_group(s, first.device());
      if (group.carries(first.dtype())) {
        run_gpu_bucket(s, group, kind, arrays, bucket, total, root);
        continue;
      }
    } else if (back_to_back(arrays, bucket)) {
      run_collective(s, kind, first.raw_data(), total, first.dtype(), root, device_type);
      continue;
    }
    // Through a bucket buffer in host memory (GPU arrays of the dtypes NCCL lacks too): what a rank sends
    // is packed, what it receives unpacked.
    const bool sends = kind == Collective::allreduce || s.rank == root;
    const bool receives = kind == Collective::allreduce || s.rank != root;
    const ndarray<> buffer = xp::empty({total}, first.dtype(), cpu(0));
    if (sends) move_through(arrays, bucket, buffer, /*into=*/true);
    run_collective(s, kind, buffer.raw_data(), total, first.dtype(), root, device_type);
    if (receives) move_through(arrays, bucket, buffer, /*into=*/false);
  }
}

}  // namespace

void allreduce(const std::vector<ndarray<>>& arrays) { run_buckets("allreduce", Collective::allreduce, arrays, 0); }

void broadcast(const std::vector<ndarray<>>& arrays, int root) {
  const int processes = size();
  XP_CHECK(root >= 0 && root < processes, ValueError, "xp::dist::broadcast: root ", root, " is not a rank of ",
           processes);
  run_buckets("broadcast", Collective::broadcast, arrays, root);
}

}  // namespace xp::dist
