#pragma once
/// @file completion_gate.hpp
/// @brief When a file found by the watcher may be read: closed after writing or unchanged for a
/// set time, and whole (docs/session.md#completeness).
#include <chrono>
#include <cstdint>
#include <map>
#include <string>

#include "frost/session/completeness.hpp"

namespace frost::session {

/// @brief Tracks the files of a session until they are complete. Not thread-safe.
///
/// A file is read only when (a) the watcher saw it closed after writing (inotify IN_CLOSE_WRITE
/// or IN_MOVED_TO) with its size unchanged since, or its size and mtime have not changed for
/// `stable_seconds`; and (b) check_movie_structure() says it is whole. A writer that closes
/// the file between chunks passes (a) early and is held back by (b).
class CompletionGate {
public:
  using Clock = std::chrono::steady_clock;
  explicit CompletionGate(double stable_seconds) : stable_seconds_(stable_seconds) {}

  /// Notes that the watcher saw `path` closed after writing (or renamed into place).
  void mark_closed(const std::string& path);
  /// The verdict for `path` now. NotYet while the file is changing; Truncated and Invalid come
  /// from the structure check (while the session runs, treat Truncated as "not yet").
  CompletenessResult check(const std::string& path, Clock::time_point now = Clock::now());
  /// Forgets a file (done, failed, or removed).
  void forget(const std::string& path) { files_.erase(path); }
  std::size_t tracked() const { return files_.size(); }

private:
  struct State {
    std::int64_t size = -1, mtime_ns = -1;
    Clock::time_point since{};
    bool closed = false;
    std::int64_t closed_size = -1;
  };
  double stable_seconds_;
  std::map<std::string, State> files_;
};

} // namespace frost::session
