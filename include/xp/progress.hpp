#pragma once
/// \file
/// Progress of long work, on a terminal only (tqdm's rule): one line, rewritten in place at most ten
/// times a second, then either left as a final line or erased. When the stream is not a terminal (a
/// pipe, a log file, CI) nothing is written at all. XP_PROGRESS=0 silences it everywhere; XP_PROGRESS=1
/// writes it whatever the stream is. Used by xp::utils::download, the first compile of a slow run-time
/// kernel, and the examples' training loops; open to users' own loops.
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>

#include "xp/export.hpp"

namespace xp {

/// One line of progress on a terminal, rewritten in place; nothing when the stream is not a terminal.
class XP_API ProgressLine {
 public:
  /// Shows on `stream` (default stderr) when it is a terminal, or as XP_PROGRESS says.
  explicit ProgressLine(std::FILE* stream = stderr);
  ~ProgressLine();  ///< erases a line that was not finished
  ProgressLine(const ProgressLine&) = delete;
  ProgressLine& operator=(const ProgressLine&) = delete;

  bool shown() const noexcept { return shown_; }  ///< whether updates are shown at all
  /// Rewrites the line; calls within 0.1 s of the last shown update are skipped unless `force`.
  void update(std::string_view text, bool force = false);
  /// Leaves `text` as the final line (with a newline), or erases the line when `text` is empty.
  void finish(std::string_view text = {});

 private:
  std::FILE* stream_;
  bool shown_;
  bool open_ = false;  ///< a line is on the screen
  std::size_t width_ = 0;  ///< of the line on the screen
  std::chrono::steady_clock::time_point last_{};
};

/// Whether progress shows on `stream`: XP_PROGRESS=0/1, else whether the stream is a terminal.
XP_API bool progress_shown_on(std::FILE* stream) noexcept;

/// "812 B", "1.5 KiB", "3.4 MiB", "2.0 GiB"
XP_API std::string format_bytes(double bytes);
/// "0.4 s", "12 s", "3 min 05 s", "2 h 01 min"
XP_API std::string format_duration(double seconds);

}  // namespace xp
