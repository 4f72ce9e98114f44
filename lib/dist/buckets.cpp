#include "dist/buckets.hpp"

#include <utility>

namespace xp::dist::detail {

std::vector<std::vector<std::size_t>> plan_buckets(std::span<const BucketMember> arrays, std::size_t capacity) {
  struct Group {
    Device device;
    xp::dtype type;
    std::vector<std::vector<std::size_t>> buckets;
    std::size_t open_bytes = 0;  // in the group's last bucket
  };
  std::vector<Group> groups;
  for (std::size_t i = 0; i < arrays.size(); ++i) {
    const BucketMember& a = arrays[i];
    if (a.bytes == 0) continue;
    Group* group = nullptr;
    for (Group& g : groups)
      if (g.device == a.device && g.type == a.type) group = &g;
    if (!group) group = &groups.emplace_back(Group{a.device, a.type, {}, 0});
    if (group->buckets.empty() || group->open_bytes + a.bytes > capacity) {
      group->buckets.emplace_back();
      group->open_bytes = 0;
    }
    group->buckets.back().push_back(i);
    group->open_bytes += a.bytes;
  }
  std::vector<std::vector<std::size_t>> out;
  for (Group& g : groups)
    for (auto& bucket : g.buckets) out.push_back(std::move(bucket));
  return out;
}

}  // namespace xp::dist::detail
