// xp::dist::allreduce and broadcast: buckets of arrays, each one MPI collective over host memory.
#include <algorithm>
#include <climits>
#include <cstdint>

#include "dist/buckets.hpp"
#include "dist/session.hpp"
#include "xp/creation.hpp"
#include "xp/dist.hpp"
#include "xp/index.hpp"

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
  }
  throw ValueError("xp::dist: no MPI type for ", type);
}

enum class Collective { allreduce, broadcast };

// Whether the members lie back to back in host memory, in order: then the bucket is their own memory.
bool back_to_back(const std::vector<ndarray<>>& arrays, const std::vector<std::size_t>& members) {
  const ndarray<>& first = arrays[members.front()];
  if (first.device().is_gpu()) return false;
  const auto* next = static_cast<const std::byte*>(first.raw_data());
  for (const std::size_t m : members) {
    const ndarray<>& a = arrays[m];
    if (!a.is_contiguous() || a.raw_data() != next) return false;
    next += a.size() * itemsize(a.dtype());
  }
  return true;
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
      detail::check_mpi(MPI_Allreduce(MPI_IN_PLACE, at, n, mpi_type(type),
                                      type == xp::dtype::bool_ ? MPI_LOR : MPI_SUM, s.comm),
                        call);
    else
      detail::check_mpi(MPI_Bcast(at, n, mpi_type(type), root, s.comm), call);
  }
}

void run_buckets(const char* caller, Collective kind, const std::vector<ndarray<>>& arrays, int root) {
  detail::Session& s = detail::session(caller);
  if (arrays.size() == 1 && back_to_back(arrays, {0})) {  // one array in host memory: no plan to make
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
    if (back_to_back(arrays, bucket)) {
      run_collective(s, kind, first.raw_data(), total, first.dtype(), root, device_type);
      continue;
    }
    // Through a bucket buffer in host memory: what a rank sends is packed, what it receives unpacked.
    const bool sends = kind == Collective::allreduce || s.rank == root;
    const bool receives = kind == Collective::allreduce || s.rank != root;
    ndarray<> buffer = xp::empty({total}, first.dtype(), cpu(0));
    const auto place = [&](const ndarray<>& a, std::int64_t at) {
      return buffer(slice(at, at + static_cast<std::int64_t>(a.size()))).reshape(a.shape());
    };
    std::int64_t at = 0;
    if (sends)
      for (const std::size_t m : bucket) {
        arrays[m].copyto(place(arrays[m], at));
        at += static_cast<std::int64_t>(arrays[m].size());
      }
    run_collective(s, kind, buffer.raw_data(), total, first.dtype(), root, device_type);
    at = 0;
    if (receives)
      for (const std::size_t m : bucket) {
        place(arrays[m], at).copyto(arrays[m]);
        at += static_cast<std::int64_t>(arrays[m].size());
      }
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
