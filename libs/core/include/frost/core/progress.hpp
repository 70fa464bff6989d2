#pragma once
/// @file progress.hpp
/// @brief Progress of long loops: a bar on a terminal, rate-limited lines otherwise, or nothing.
#include <chrono>
#include <cstdint>
#include <mutex>
#include <string>

namespace frost {

enum class ProgressMode { Auto, Bar, Lines, None };

/// Parse "auto|bar|lines|none"; throws frost::Error(Usage) otherwise.
ProgressMode parse_progress_mode(const std::string& text);
/// Process-wide default, set by the program base from `--progress` (and None on MPI ranks > 0).
void set_default_progress_mode(ProgressMode mode);
ProgressMode default_progress_mode();

/// Reports `done/total units` with elapsed time and ETA on stderr. Thread-safe `advance`.
/// Lines look like `[program] 1200/5000 images 24.0% elapsed 12.3 s eta 39.0 s`, at most one
/// every `min_interval_s` seconds (docs/conventions.md#start-banner-progress-and-logs).
class Progress {
public:
  Progress(std::string label, std::int64_t total, std::string unit,
           ProgressMode mode = default_progress_mode(), double min_interval_s = 5.0);
  ~Progress();
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  void advance(std::int64_t count = 1);
  void finish();
  std::int64_t done() const { return done_; }
  /// The text of the current state (what a line would print); used by tests.
  std::string line() const;

private:
  void report(bool final_report);
  std::string label_, unit_;
  std::int64_t total_, done_ = 0;
  ProgressMode mode_;
  double min_interval_s_;
  std::chrono::steady_clock::time_point start_, last_;
  bool finished_ = false;
  mutable std::mutex mutex_;
};

} // namespace frost
