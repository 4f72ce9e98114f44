#include "support/process_group.hpp"

#include <atomic>

namespace xp::detail {

namespace {
std::atomic<ProcessGroup*> registered{nullptr};
}  // namespace

ProcessGroup* process_group() noexcept { return registered.load(std::memory_order_acquire); }
void set_process_group(ProcessGroup* group) noexcept { registered.store(group, std::memory_order_release); }

}  // namespace xp::detail
