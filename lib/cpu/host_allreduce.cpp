#include "cpu/host_allreduce.hpp"

#include <algorithm>
#include <vector>

#include "xp/error.hpp"
#include "xp/kernels/cpu/parallel_for.hpp"

namespace xp::detail {

namespace {

template <class T>
struct AllreduceTask {
  std::vector<const T*> inputs;
  std::vector<T*> outputs;
};

// Blocks of this many elements: the partial sum stays in L1 and each block's loops vectorise; an
// output may be an input, since a block is read completely before any of it is written.
constexpr std::int64_t kBlock = 512;

template <class T>
void sum_range(const AllreduceTask<T>& task, std::int64_t begin, std::int64_t end) {
  alignas(64) T total[kBlock];
  for (std::int64_t start = begin; start < end; start += kBlock) {
    const std::int64_t n = std::min(kBlock, end - start);
    const T* __restrict first = task.inputs[0] + start;
    for (std::int64_t i = 0; i < n; ++i) total[i] = first[i];
    for (std::size_t k = 1; k < task.inputs.size(); ++k) {
      const T* __restrict in = task.inputs[k] + start;
      for (std::int64_t i = 0; i < n; ++i) total[i] = static_cast<T>(total[i] + in[i]);
    }
    for (T* out : task.outputs) std::copy_n(total, n, out + start);
  }
}

}  // namespace

void host_allreduce_sum(std::span<const CollectiveBuffer> buffers, std::int64_t count, xp::dtype type) {
  if (buffers.empty() || count == 0) return;
  visit_dtype(type, [&]<class T>(std::type_identity<T>) {
    AllreduceTask<T> task;
    for (const CollectiveBuffer& b : buffers) {
      task.inputs.push_back(static_cast<const T*>(b.input));
      task.outputs.push_back(static_cast<T*>(b.output));
    }
    parallel_for(
        count, kParallelGrain,
        [](void* context, std::int64_t begin, std::int64_t end) {
          sum_range(*static_cast<const AllreduceTask<T>*>(context), begin, end);
        },
        &task);
  });
}

namespace {

class HostCollectives final : public DeviceCollectives {
 public:
  void allreduce_sum(std::span<const CollectiveBuffer> buffers, std::int64_t count, xp::dtype type) override {
    host_allreduce_sum(buffers, count, type);
  }
  std::vector<std::byte> new_communicator_id() override { return {}; }
  std::unique_ptr<Communicator> join_communicator(Device device, std::span<const std::byte>, int, int) override {
    throw NotImplementedError("communicators: ", device, " is host memory, which MPI reaches itself");
  }
};

}  // namespace

DeviceCollectives& host_collectives() {
  static HostCollectives collectives;
  return collectives;
}

}  // namespace xp::detail
