// The pool policy, checked with a fake raw allocator of fixed capacity (CuPy's pool tests, ported).
#include <doctest/doctest.h>

#include <cstdlib>
#include <cstring>
#include <latch>
#include <random>
#include <thread>
#include <vector>

#include "core/pool_options.hpp"
#include "xp/xp.hpp"

namespace {

constexpr std::size_t u = xp::MemoryPool::kRoundSize;

// Real memory (so that tests can write into blocks), refused past a fixed capacity.
class FakeAllocator final : public xp::RawAllocator {
 public:
  explicit FakeAllocator(std::size_t capacity_bytes = 1 << 30) : capacity(capacity_bytes) {}
  void* allocate(std::size_t bytes) override {
    if (in_use + bytes > capacity) return nullptr;
    in_use += bytes;
    ++allocations;
    return std::malloc(bytes);
  }
  void deallocate(void* ptr, std::size_t bytes) noexcept override {
    in_use -= bytes;
    ++deallocations;
    std::free(ptr);
  }

  std::size_t capacity;
  std::size_t in_use = 0;
  int allocations = 0;
  int deallocations = 0;
};

char* address(const xp::Allocation& a) { return static_cast<char*>(a.get()); }

struct Stats {
  std::size_t used, free, total;
  bool operator==(const Stats&) const = default;
};
Stats stats(const xp::MemoryPool& pool) { return {pool.used_bytes(), pool.free_bytes(), pool.total_bytes()}; }
std::ostream& operator<<(std::ostream& out, const Stats& s) {
  return out << s.used / u << "u/" << s.free / u << "u/" << s.total / u << "u";
}

}  // namespace

TEST_CASE("sizes round up to 512 bytes") {
  FakeAllocator raw;
  xp::MemoryPool pool(raw, xp::cpu(0));
  auto a = pool.malloc(1);
  CHECK(pool.used_bytes() == u);
  CHECK(a.size() == 1);
  auto b = pool.malloc(u + 1);
  CHECK(pool.used_bytes() == 3 * u);
  auto c = pool.malloc(u);
  CHECK(pool.used_bytes() == 4 * u);
}

TEST_CASE("zero-byte requests are not pooled") {
  FakeAllocator raw;
  xp::MemoryPool pool(raw, xp::cpu(0));
  auto a = pool.malloc(0);
  CHECK(!a);
  CHECK(a.get() == nullptr);
  CHECK(stats(pool) == Stats{0, 0, 0});
  CHECK(raw.allocations == 0);
}

TEST_CASE("a freed block of the same size is reused") {
  FakeAllocator raw;
  xp::MemoryPool pool(raw, xp::cpu(0));
  auto a = pool.malloc(3 * u);
  char* first = address(a);
  a.free();
  auto b = pool.malloc(3 * u - 100);
  CHECK(address(b) == first);
  CHECK(raw.allocations == 1);
}

TEST_CASE("best fit splits a larger block: its head, then its tail") {
  FakeAllocator raw;
  xp::MemoryPool pool(raw, xp::cpu(0));
  auto a = pool.malloc(4 * u);
  char* block = address(a);
  a.free();
  auto head = pool.malloc(2 * u);
  auto tail = pool.malloc(2 * u);
  CHECK(address(head) == block);
  CHECK(address(tail) == block + 2 * u);
  CHECK(raw.allocations == 1);
}

TEST_CASE("best fit takes the smallest cached block that fits") {
  FakeAllocator raw;
  xp::MemoryPool pool(raw, xp::cpu(0));
  auto four = pool.malloc(4 * u);
  auto two = pool.malloc(2 * u);
  auto eight = pool.malloc(8 * u);
  char* four_at = address(four);
  char* two_at = address(two);
  four.free();
  two.free();
  eight.free();
  CHECK(pool.n_free_blocks() == 3);
  auto a = pool.malloc(2 * u);
  auto b = pool.malloc(3 * u);
  CHECK(address(a) == two_at);
  CHECK(address(b) == four_at);
  CHECK(raw.allocations == 3);
}

TEST_CASE("split halves merge back, in either order") {
  for (bool head_first : {true, false}) {
    FakeAllocator raw;
    xp::MemoryPool pool(raw, xp::cpu(0));
    auto whole = pool.malloc(4 * u);
    char* block = address(whole);
    whole.free();
    auto head = pool.malloc(2 * u);
    auto tail = pool.malloc(2 * u);
    CHECK(pool.n_free_blocks() == 0);
    (head_first ? head : tail).free();
    CHECK(pool.n_free_blocks() == 1);
    (head_first ? tail : head).free();
    CHECK(pool.n_free_blocks() == 1);
    CHECK(pool.free_bytes() == 4 * u);
    auto again = pool.malloc(4 * u);
    CHECK(address(again) == block);
    CHECK(raw.allocations == 1);
  }
}

TEST_CASE("a block between two free neighbours merges with both") {
  FakeAllocator raw;
  xp::MemoryPool pool(raw, xp::cpu(0));
  { auto whole = pool.malloc(6 * u); }
  auto a = pool.malloc(2 * u);
  auto b = pool.malloc(2 * u);
  auto c = pool.malloc(2 * u);
  a.free();
  c.free();
  CHECK(pool.n_free_blocks() == 2);
  b.free();
  CHECK(pool.n_free_blocks() == 1);
  CHECK(pool.free_bytes() == 6 * u);
}

TEST_CASE("used, free and total bytes follow CuPy's sequence") {
  FakeAllocator raw;
  xp::MemoryPool pool(raw, xp::cpu(0));
  auto p2 = pool.malloc(2 * u);
  CHECK(stats(pool) == Stats{2 * u, 0, 2 * u});
  auto p4 = pool.malloc(4 * u);
  CHECK(stats(pool) == Stats{6 * u, 0, 6 * u});
  p4.free();
  CHECK(stats(pool) == Stats{2 * u, 4 * u, 6 * u});
  p2.free();
  CHECK(stats(pool) == Stats{0, 6 * u, 6 * u});
  auto p1 = pool.malloc(1 * u);  // best fit: the 2u block, split
  CHECK(stats(pool) == Stats{1 * u, 5 * u, 6 * u});
  p1.free();
  pool.free_all_blocks();
  CHECK(stats(pool) == Stats{0, 0, 0});
  CHECK(raw.in_use == 0);
  CHECK(raw.deallocations == 2);
}

TEST_CASE("free_all_blocks releases only whole raw allocations") {
  FakeAllocator raw;
  xp::MemoryPool pool(raw, xp::cpu(0));
  { auto whole = pool.malloc(4 * u); }
  auto part = pool.malloc(2 * u);
  { auto other = pool.malloc(8 * u); }
  pool.free_all_blocks();
  CHECK(stats(pool) == Stats{2 * u, 2 * u, 4 * u});  // the split block stays
  part.free();
  pool.free_all_blocks();
  CHECK(stats(pool) == Stats{0, 0, 0});
}

TEST_CASE("the limit bounds used plus cached bytes") {
  FakeAllocator raw;
  xp::MemoryPool pool(raw, xp::cpu(0));
  pool.set_limit(6 * u);
  CHECK(pool.get_limit() == 6 * u);
  auto a = pool.malloc(5 * u);
  auto b = pool.malloc(1 * u);
  CHECK_THROWS_AS(pool.malloc(1), xp::OutOfMemoryError);
  pool.set_limit(7 * u);
  auto c = pool.malloc(1);
  CHECK(pool.used_bytes() == 7 * u);
  pool.set_limit(0);  // no limit
  auto d = pool.malloc(100 * u);
  CHECK(pool.used_bytes() == 107 * u);
}

TEST_CASE("at the limit, cached blocks are released and the request retried") {
  FakeAllocator raw;
  xp::MemoryPool pool(raw, xp::cpu(0));
  pool.set_limit(6 * u);
  { auto five = pool.malloc(5 * u); }
  CHECK(pool.free_bytes() == 5 * u);
  auto six = pool.malloc(6 * u);
  CHECK(stats(pool) == Stats{6 * u, 0, 6 * u});
  CHECK(raw.deallocations == 1);
}

TEST_CASE("at the limit, the blocks other threads cache are released too") {
  FakeAllocator raw;
  xp::MemoryPool pool(raw, xp::cpu(0));
  pool.set_limit(6 * u);
  std::latch cached(1), done(1);
  std::thread worker([&] {
    { auto five = pool.malloc(5 * u); }  // stays in this thread's cache
    cached.count_down();
    done.wait();
  });
  cached.wait();
  CHECK(stats(pool) == Stats{0, 5 * u, 5 * u});
  {
    auto six = pool.malloc(6 * u);
    CHECK(stats(pool) == Stats{6 * u, 0, 6 * u});
    CHECK(raw.deallocations == 1);
  }
  done.count_down();
  worker.join();
}

TEST_CASE("when the raw allocator is exhausted, cached blocks are released and the request retried") {
  FakeAllocator raw(8 * u);
  xp::MemoryPool pool(raw, xp::cpu(0));
  { auto five = pool.malloc(5 * u); }
  auto six = pool.malloc(6 * u);
  CHECK(stats(pool) == Stats{6 * u, 0, 6 * u});
  CHECK(raw.allocations == 2);
}

TEST_CASE("out of memory reports the requested, used and cached bytes") {
  FakeAllocator raw(4 * u);
  xp::MemoryPool pool(raw, xp::cpu(3));
  auto held = pool.malloc(3 * u);
  CHECK_THROWS_WITH_AS(pool.malloc(2 * u),
                       "out of memory on cpu(3): cannot allocate 1024 bytes (used: 1536 bytes, "
                       "cached: 0 bytes, limit: none)",
                       xp::OutOfMemoryError);
  pool.set_limit(4 * u);
  CHECK_THROWS_WITH_AS(pool.malloc(2 * u), doctest::Contains("limit: 2048 bytes"), xp::OutOfMemoryError);
  CHECK(stats(pool) == Stats{3 * u, 0, 3 * u});
  CHECK_THROWS_AS(pool.malloc(std::size_t(-1)), xp::OutOfMemoryError);
}

TEST_CASE("freeing twice is harmless; moves transfer ownership") {
  FakeAllocator raw;
  xp::MemoryPool pool(raw, xp::cpu(0));
  auto a = pool.malloc(u);
  a.free();
  a.free();
  CHECK(stats(pool) == Stats{0, u, u});

  auto b = pool.malloc(2 * u);
  xp::Allocation moved = std::move(b);
  CHECK(!b);  // NOLINT(bugprone-use-after-move): checking the moved-from state
  CHECK(moved.size() == 2 * u);
  auto c = pool.malloc(3 * u);
  moved = std::move(c);  // the 2u block goes back to the pool
  CHECK(pool.used_bytes() == 3 * u);
}

TEST_CASE("with caching off, freed blocks go straight back to the raw allocator") {
  FakeAllocator raw;
  xp::MemoryPool pool(raw, xp::cpu(0), xp::PoolOptions{.caching = false});
  {
    auto a = pool.malloc(4 * u);
    CHECK(stats(pool) == Stats{4 * u, 0, 4 * u});
  }
  CHECK(stats(pool) == Stats{0, 0, 0});
  { auto b = pool.malloc(4 * u); }
  CHECK(raw.allocations == 2);
  CHECK(raw.deallocations == 2);
}

TEST_CASE("cached blocks are reused only on the stream they were allocated for") {
  FakeAllocator raw;
  xp::MemoryPool pool(raw, xp::cpu(0));
  int stream_a = 0, stream_b = 0;
  auto a = pool.malloc(2 * u, &stream_a);
  char* block = address(a);
  a.free();
  auto b = pool.malloc(2 * u, &stream_b);
  CHECK(address(b) != block);
  auto c = pool.malloc(2 * u, &stream_a);
  CHECK(address(c) == block);
  CHECK(raw.allocations == 2);
}

TEST_CASE("a stream of another device cannot allocate from a pool") {
  xp::MemoryPool& pool = xp::get_default_memory_pool(xp::cpu(0));
  CHECK_THROWS_WITH_AS(pool.malloc(10, xp::Stream(xp::cpu(1))),
                       "MemoryPool::malloc: the stream is on cpu(1) but the pool is for cpu(0)",
                       xp::DeviceMismatchError);
  CHECK(pool.malloc(10, xp::Stream(xp::cpu(0))));
}

TEST_CASE("blocks above 1 MiB: best fit and splits") {
  constexpr std::size_t mib = 1 << 20;
  FakeAllocator raw;
  xp::MemoryPool pool(raw, xp::cpu(0));
  auto three = pool.malloc(3 * mib);
  auto two = pool.malloc(2 * mib);
  char* three_at = address(three);
  char* two_at = address(two);
  three.free();
  two.free();
  auto a = pool.malloc(2 * mib);
  CHECK(address(a) == two_at);
  auto small = pool.malloc(u);  // a small request split off the 3 MiB block
  CHECK(address(small) == three_at);
  auto rest = pool.malloc(3 * mib - u);
  CHECK(address(rest) == three_at + u);
  CHECK(raw.allocations == 2);
  small.free();
  rest.free();
  CHECK(pool.n_free_blocks() == 1);
  CHECK(pool.free_bytes() == 3 * mib);
}

TEST_CASE("blocks a thread freed count as cached; any thread's free_all_blocks and the thread's exit return them") {
  FakeAllocator raw;
  xp::MemoryPool pool(raw, xp::cpu(0));
  std::latch freed(1), emptied(1), refilled(1), checked(1);
  char* first = nullptr;
  char* second = nullptr;
  std::thread worker([&] {
    {
      auto a = pool.malloc(3 * u);
      first = address(a);
    }
    auto again = pool.malloc(3 * u);  // its own cache hands the block back
    CHECK(address(again) == first);
    again.free();
    freed.count_down();
    emptied.wait();
    {
      auto fresh = pool.malloc(3 * u);  // its cached block went to the raw allocator
      second = address(fresh);
    }
    refilled.count_down();
    checked.wait();
  });
  freed.wait();
  CHECK(stats(pool) == Stats{0, 3 * u, 3 * u});
  CHECK(pool.n_free_blocks() == 1);
  pool.free_all_blocks();  // takes the other thread's cached block too
  CHECK(raw.in_use == 0);
  CHECK(stats(pool) == Stats{0, 0, 0});
  CHECK(pool.n_free_blocks() == 0);
  emptied.count_down();
  refilled.wait();
  CHECK(raw.allocations == 2);
  CHECK(stats(pool) == Stats{0, 3 * u, 3 * u});
  checked.count_down();
  worker.join();
  CHECK(stats(pool) == Stats{0, 3 * u, 3 * u});
  auto reused = pool.malloc(3 * u);  // back in the pool's arena at the worker's exit, any thread takes it
  CHECK(address(reused) == second);
  reused.free();
  pool.free_all_blocks();
  CHECK(raw.in_use == 0);
  CHECK(raw.allocations == 2);
}

TEST_CASE("a pool destroyed while a thread caches its blocks releases them") {
  FakeAllocator raw;
  {
    xp::MemoryPool pool(raw, xp::cpu(0));
    { auto a = pool.malloc(u); }
    { auto b = pool.malloc(2 * u); }
  }
  CHECK(raw.in_use == 0);
  CHECK(raw.deallocations == 2);
}

TEST_CASE("the pool is safe under concurrent allocation and freeing") {
  FakeAllocator raw;
  xp::MemoryPool pool(raw, xp::cpu(0));
  constexpr int kThreads = 4;
  constexpr int kRounds = 20000;
  std::vector<std::thread> threads;
  std::vector<int> errors(kThreads, 0);
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      std::mt19937 random(static_cast<unsigned>(t));
      std::uniform_int_distribution<std::size_t> size(1, 64 * 1024);
      std::vector<xp::Allocation> held;
      for (int round = 0; round < kRounds; ++round) {
        if (held.size() < 16 && (held.empty() || random() % 2 == 0)) {
          xp::Allocation a = pool.malloc(size(random));
          std::memset(a.get(), t + 1, a.size());
          held.push_back(std::move(a));
        } else {
          const std::size_t victim = random() % held.size();
          const auto* bytes = static_cast<const unsigned char*>(held[victim].get());
          for (std::size_t i = 0; i < held[victim].size(); i += 97)
            errors[t] += bytes[i] != static_cast<unsigned char>(t + 1);
          held.erase(held.begin() + static_cast<std::ptrdiff_t>(victim));
        }
      }
    });
  }
  for (auto& thread : threads) thread.join();
  for (int t = 0; t < kThreads; ++t) CHECK(errors[t] == 0);  // no block was handed out twice
  CHECK(pool.used_bytes() == 0);
  CHECK(pool.free_bytes() == pool.total_bytes());
  pool.free_all_blocks();
  CHECK(raw.in_use == 0);
}

TEST_CASE("memory limits parse as bytes or a percentage") {
  using xp::detail::parse_memory_limit;
  CHECK(parse_memory_limit("1073741824", 0) == 1073741824u);
  CHECK(parse_memory_limit("40%", 1000) == 400);
  CHECK(parse_memory_limit("12.5%", 1000) == 125);
  CHECK(parse_memory_limit("100%", 1000) == 1000);
  CHECK(parse_memory_limit("0", 1000) == 0);
  CHECK(parse_memory_limit("29%", 100) == 29);
  // Found by fuzz_memory_limit: 100% of nearly 2^64 bytes came out above the total.
  CHECK(parse_memory_limit("100%", 0xfffffffffff0f0f0u) == 0xfffffffffff0f0f0u);
  CHECK(parse_memory_limit("100%", SIZE_MAX) == SIZE_MAX);
  for (const char* bad : {"", "-1", "+5", "abc", "12x", "1.5", "1e9", "101%", "-1%", "%", "nan%", " 5"})
    CHECK_THROWS_WITH_AS(parse_memory_limit(bad, 1000), doctest::Contains("invalid memory limit"), xp::ValueError);
}

TEST_CASE("pool options come from XP_DISABLE_POOL and XP_GPU_MEMORY_LIMIT") {
  using xp::detail::pool_options_from_environment;
  ::unsetenv("XP_DISABLE_POOL");
  ::setenv("XP_GPU_MEMORY_LIMIT", "40%", 1);
  CHECK(pool_options_from_environment(xp::gpu(0), 1000).limit == 400);
  CHECK(pool_options_from_environment(xp::gpu(0), 1000).caching);
  CHECK(pool_options_from_environment(xp::cpu(0), 1000).limit == 0);  // GPU pools only
  ::setenv("XP_GPU_MEMORY_LIMIT", "1073741824", 1);
  CHECK(pool_options_from_environment(xp::gpu(1), 1000).limit == 1073741824u);
  ::setenv("XP_GPU_MEMORY_LIMIT", "lots", 1);
  CHECK_THROWS_WITH_AS(pool_options_from_environment(xp::gpu(0), 1000),
                       doctest::Contains("XP_GPU_MEMORY_LIMIT: invalid memory limit 'lots'"), xp::ValueError);
  ::unsetenv("XP_GPU_MEMORY_LIMIT");

  ::setenv("XP_DISABLE_POOL", "1", 1);
  CHECK(!pool_options_from_environment(xp::cpu(0), 0).caching);
  ::setenv("XP_DISABLE_POOL", "0", 1);
  CHECK(pool_options_from_environment(xp::cpu(0), 0).caching);
  ::setenv("XP_DISABLE_POOL", "yes", 1);
  CHECK_THROWS_AS(pool_options_from_environment(xp::cpu(0), 0), xp::ValueError);
  ::unsetenv("XP_DISABLE_POOL");
}

TEST_CASE("XP_DISABLE_POOL=1 makes a default pool hand memory straight back") {
  ::setenv("XP_DISABLE_POOL", "1", 1);
  xp::MemoryPool& pool = xp::get_default_memory_pool(xp::cpu(9));  // created now, reads it
  ::unsetenv("XP_DISABLE_POOL");
  { const auto a = xp::ones<double>({100}, xp::cpu(9)); }
  CHECK(pool.total_bytes() == 0);
}

TEST_CASE("every device has its own default pool") {
  xp::MemoryPool& p0 = xp::get_default_memory_pool(xp::cpu(0));
  xp::MemoryPool& p4 = xp::get_default_memory_pool(xp::cpu(4));
  CHECK(&p0 != &p4);
  CHECK(&p4 == &xp::get_default_memory_pool(xp::cpu(4)));
  CHECK(p4.device() == xp::cpu(4));
  CHECK(&xp::get_default_pinned_memory_pool() == &xp::get_default_memory_pool(xp::cpu_pinned(0)));
  CHECK(&xp::get_default_memory_pool(xp::cpu_pinned(0)) != &p0);
  {
    const xp::DeviceScope scope(xp::cpu(4));
    CHECK(&xp::get_default_memory_pool() == &p4);
  }
  const std::size_t used0 = p0.used_bytes();
  const auto a = xp::zeros<float>({1000}, xp::cpu(4));
  CHECK(p4.used_bytes() == 4096);
  CHECK(p0.used_bytes() == used0);
}
