// xp::dist as the kvstore's and the Trainer's way to the other processes (support/process_group.hpp).
#include "dist/mpi_process_group.hpp"

#include <climits>
#include <cstdint>
#include <mutex>

#include "dist/session.hpp"
#include "xp/dist.hpp"

namespace xp::dist::detail {

int MpiProcessGroup::rank() const { return dist::rank(); }
int MpiProcessGroup::size() const { return dist::size(); }
void MpiProcessGroup::allreduce(const std::vector<ndarray<>>& arrays) { dist::allreduce(arrays); }
void MpiProcessGroup::broadcast(const std::vector<ndarray<>>& arrays, int root) { dist::broadcast(arrays, root); }

std::vector<std::string> MpiProcessGroup::allgather(const std::string& text) {
  Session& s = session("allgather");
  const std::lock_guard lock(s.mutex);
  XP_CHECK(text.size() <= static_cast<std::size_t>(INT_MAX), ValueError, "xp::dist: a text of ", text.size(),
           " bytes is too long to gather");
  const int length = static_cast<int>(text.size());
  std::vector<int> lengths(static_cast<std::size_t>(s.size)), offsets(static_cast<std::size_t>(s.size));
  {
    const Watchdog::Guard guard(*s.watchdog, {"MPI_Allgather"});
    check_mpi(MPI_Allgather(&length, 1, MPI_INT, lengths.data(), 1, MPI_INT, s.comm), "MPI_Allgather");
  }
  std::int64_t total = 0;
  for (std::size_t r = 0; r < lengths.size(); ++r) {
    XP_CHECK(total + lengths[r] <= INT_MAX, ValueError, "xp::dist: the gathered texts exceed ", INT_MAX, " bytes");
    offsets[r] = static_cast<int>(total);
    total += lengths[r];
  }
  std::string all(static_cast<std::size_t>(total), '\0');
  {
    const Watchdog::Guard guard(*s.watchdog, {"MPI_Allgatherv"});
    check_mpi(
        MPI_Allgatherv(text.data(), length, MPI_CHAR, all.data(), lengths.data(), offsets.data(), MPI_CHAR, s.comm),
        "MPI_Allgatherv");
  }
  std::vector<std::string> out;
  for (std::size_t r = 0; r < lengths.size(); ++r)
    out.push_back(all.substr(static_cast<std::size_t>(offsets[r]), static_cast<std::size_t>(lengths[r])));
  return out;
}

}  // namespace xp::dist::detail
