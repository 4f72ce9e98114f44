// Chainer's memoized factories xp::elementwise / xp::reduce, and clear_memo.
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "api/jit/compiled_kernels.hpp"
#include "xp/memoize.hpp"
#include "xp/user_kernel.hpp"

namespace xp {

namespace {

// The memo of one factory. clear_memo forgets the kernels, but keeps the objects alive: references
// handed out stay valid for the whole program.
template <class Kernel>
struct FactoryMemo {
  std::mutex mutex;
  std::map<std::string, std::unique_ptr<Kernel>> kernels;
  std::vector<std::unique_ptr<Kernel>> retired;

  void clear() {
    const std::lock_guard lock(mutex);
    for (auto& [key, kernel] : kernels) retired.push_back(std::move(kernel));
    kernels.clear();
  }
};

FactoryMemo<ElementwiseKernel>& elementwise_memo() {
  static auto* memo = new FactoryMemo<ElementwiseKernel>;  // outlives static callers
  return *memo;
}

FactoryMemo<ReductionKernel>& reduction_memo() {
  static auto* memo = new FactoryMemo<ReductionKernel>;
  return *memo;
}

// The arguments as one key; each piece prefixed by its length, so no two argument lists collide.
template <class... Pieces>
std::string memo_key(const KernelOptions& options, const Pieces&... pieces) {
  std::string key;
  const auto add = [&](std::string_view piece) {
    key += std::to_string(piece.size());
    key += ':';
    key += piece;
  };
  (add(pieces), ...);
  add(options.preamble);
  add(options.loop_prep);
  add(options.after_loop);
  add(options.reduce_type);
  add(options.reduce_dims ? "1" : "0");
  add(options.block_size ? std::to_string(*options.block_size) : "");
  return key;
}

struct MemoTables {
  std::mutex mutex;
  std::vector<std::weak_ptr<detail::MemoTable>> tables;
};

MemoTables& memo_tables() {
  static auto* r = new MemoTables;
  return *r;
}

}  // namespace

const ElementwiseKernel& elementwise(std::string_view in_params, std::string_view out_params,
                                     std::string_view operation, std::string_view name, const KernelOptions& options) {
  auto& memo = elementwise_memo();
  const std::string key = memo_key(options, in_params, out_params, operation, name);
  const std::lock_guard lock(memo.mutex);
  auto& slot = memo.kernels[key];
  if (!slot) slot = std::make_unique<ElementwiseKernel>(in_params, out_params, operation, name, options);
  return *slot;
}

const ReductionKernel& reduce(std::string_view in_params, std::string_view out_params, std::string_view map_expr,
                              std::string_view reduce_expr, std::string_view post_map_expr, std::string_view identity,
                              std::string_view name, const KernelOptions& options) {
  auto& memo = reduction_memo();
  const std::string key =
      memo_key(options, in_params, out_params, map_expr, reduce_expr, post_map_expr, identity, name);
  const std::lock_guard lock(memo.mutex);
  auto& slot = memo.kernels[key];
  if (!slot)
    slot = std::make_unique<ReductionKernel>(in_params, out_params, map_expr, reduce_expr, post_map_expr, identity,
                                             name, options);
  return *slot;
}

namespace detail {

void register_memo_table(std::weak_ptr<MemoTable> table) {
  const std::lock_guard lock(memo_tables().mutex);
  std::erase_if(memo_tables().tables, [](const auto& t) { return t.expired(); });
  memo_tables().tables.push_back(std::move(table));
}

}  // namespace detail

void clear_memo() {
  std::vector<std::shared_ptr<detail::MemoTable>> live;
  {
    const std::lock_guard lock(memo_tables().mutex);
    for (const auto& t : memo_tables().tables)
      if (auto table = t.lock()) live.push_back(std::move(table));
  }
  for (const auto& table : live) table->clear();
  elementwise_memo().clear();
  reduction_memo().clear();
  detail::clear_kernel_memos();
}

}  // namespace xp
