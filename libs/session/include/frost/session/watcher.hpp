#pragma once
/// @file watcher.hpp
/// @brief Follows the input folder of a session: inotify where the kernel has it, polling
/// elsewhere (docs/session.md#watcher).
#include <chrono>
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "frost/session/input_spec.hpp"

namespace frost::session {

/// A file of the input that appeared or changed.
struct WatchEvent {
  std::string path;
  /// Closed after writing (IN_CLOSE_WRITE) or renamed into place (IN_MOVED_TO): hand it to
  /// CompletionGate::mark_closed().
  bool closed = false;
};

struct WatcherOptions {
  /// Scan the folder instead of using inotify: for network file systems, where inotify does not
  /// see writes made by other machines.
  bool poll = false;
  /// Time between scans when polling; also bounds how late a movie starts.
  double poll_interval_s = 0.5;
};

/// @brief Reports the files of an InputSpec as they appear. Not thread-safe.
class Watcher {
public:
  /// Starts watching; frost::Error(Input) when the folder does not exist. inotify failing (no
  /// kernel support, watch limit reached) falls back to polling; mode() says why.
  explicit Watcher(InputSpec spec, WatcherOptions options = {});
  ~Watcher();
  Watcher(const Watcher&) = delete;
  Watcher& operator=(const Watcher&) = delete;

  bool uses_inotify() const { return fd_ >= 0; }
  /// "inotify", or "polling every S s" with the reason when inotify was wanted but failed.
  const std::string& mode() const { return mode_; }
  const InputSpec& spec() const { return spec_; }

  /// The first call returns every matching file present, oldest mtime first (acquisition
  /// order). Later calls return files created, closed, renamed in or (polling) changed since,
  /// waiting up to `timeout` for the first one; several events for one file come once.
  std::vector<WatchEvent> next(std::chrono::milliseconds timeout);

private:
  std::vector<WatchEvent> scan(bool report_all);
  std::vector<WatchEvent> read_inotify(std::chrono::milliseconds timeout);

  InputSpec spec_;
  WatcherOptions options_;
  int fd_ = -1;
  bool first_ = true;
  std::string mode_;
  std::map<std::string, std::pair<std::int64_t, std::int64_t>> known_; ///< polling: size, mtime per name
  std::chrono::steady_clock::time_point next_scan_{};
};

/// @brief `--watch-timeout`: the session ends when no new complete movie came for `seconds`.
class IdleTimer {
public:
  using Clock = std::chrono::steady_clock;
  IdleTimer(double seconds, Clock::time_point start = Clock::now()) : seconds_(seconds), last_(start) {}
  /// A new complete movie arrived at `now`.
  void progress(Clock::time_point now = Clock::now()) { last_ = now; }
  bool expired(Clock::time_point now = Clock::now()) const { return remaining(now) <= 0; }
  /// Seconds left (negative once expired).
  double remaining(Clock::time_point now = Clock::now()) const {
    return seconds_ - std::chrono::duration<double>(now - last_).count();
  }

private:
  double seconds_;
  Clock::time_point last_;
};

} // namespace frost::session
