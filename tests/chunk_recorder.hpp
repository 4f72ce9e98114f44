#pragma once
// A parallel_for body that records the chunks it was given, from any thread.
#include <cstdint>
#include <mutex>
#include <utility>
#include <vector>

struct Chunks {
  std::mutex mutex;
  std::vector<std::pair<std::int64_t, std::int64_t>> seen;
  static void record(void* self, std::int64_t begin, std::int64_t end) {
    auto& chunks = *static_cast<Chunks*>(self);
    const std::lock_guard lock(chunks.mutex);
    chunks.seen.emplace_back(begin, end);
  }
};
