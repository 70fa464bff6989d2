#include "frost/session/completion_gate.hpp"

#include <sys/stat.h>

namespace frost::session {

namespace {

bool stat_file(const std::string& path, std::int64_t& size, std::int64_t& mtime_ns) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return false;
  size = static_cast<std::int64_t>(st.st_size);
  mtime_ns = static_cast<std::int64_t>(st.st_mtim.tv_sec) * 1000000000LL + st.st_mtim.tv_nsec;
  return true;
}

} // namespace

void CompletionGate::mark_closed(const std::string& path) {
  State& s = files_[path];
  std::int64_t size = -1, mtime = -1;
  if (!stat_file(path, size, mtime)) return;
  s.closed = true;
  s.closed_size = size;
}

CompletenessResult CompletionGate::check(const std::string& path, Clock::time_point now) {
  CompletenessResult r;
  std::int64_t size = -1, mtime = -1;
  if (!stat_file(path, size, mtime)) {
    r.reason = "not a readable regular file (yet)";
    return r;
  }
  r.file_bytes = size;
  State& s = files_[path];
  if (size != s.size || mtime != s.mtime_ns) {
    // Changed since the last look: the stability clock starts again, and a close seen before
    // this write no longer counts.
    s.size = size;
    s.mtime_ns = mtime;
    s.since = now;
    if (s.closed && size != s.closed_size) s.closed = false;
  }
  if (size == 0) {
    r.reason = "empty";
    return r;
  }
  const bool closed = s.closed && size == s.closed_size;
  const double unchanged = std::chrono::duration<double>(now - s.since).count();
  if (!closed && unchanged < stable_seconds_) {
    r.reason = "still being written (size unchanged for " + std::to_string(unchanged) + " s of " +
               std::to_string(stable_seconds_) + ")";
    return r;
  }
  return check_movie_structure(path);
}

} // namespace frost::session
