#include "frost/session/watcher.hpp"

#include <dirent.h>
#include <poll.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <set>
#include <sstream>
#include <thread>
#include <tuple>

#include "frost/core/error.hpp"

namespace frost::session {

namespace {

bool stat_regular(const std::string& path, std::int64_t& size, std::int64_t& mtime_ns) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return false;
  size = static_cast<std::int64_t>(st.st_size);
  mtime_ns = static_cast<std::int64_t>(st.st_mtim.tv_sec) * 1000000000LL + st.st_mtim.tv_nsec;
  return true;
}

std::string join(const std::string& folder, const std::string& name) {
  return folder == "/" ? "/" + name : folder + "/" + name;
}

} // namespace

Watcher::Watcher(InputSpec spec, WatcherOptions options) : spec_(std::move(spec)), options_(options) {
  struct stat st {};
  if (::stat(spec_.folder.c_str(), &st) != 0 || !S_ISDIR(st.st_mode))
    throw_input_error(spec_.folder, "the input folder does not exist");
  std::ostringstream polling;
  polling << "polling every " << options_.poll_interval_s << " s";
  if (options_.poll) {
    mode_ = polling.str();
    return;
  }
  fd_ = ::inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
  // The watch is added before the first scan, so no file falls between the two.
  if (fd_ >= 0 && ::inotify_add_watch(fd_, spec_.folder.c_str(), IN_CLOSE_WRITE | IN_MOVED_TO | IN_CREATE) < 0) {
    mode_ = polling.str() + " (inotify: " + std::strerror(errno) + ")";
    ::close(fd_);
    fd_ = -1;
    return;
  }
  if (fd_ < 0) {
    mode_ = polling.str() + " (inotify: " + std::strerror(errno) + ")";
    return;
  }
  mode_ = "inotify";
}

Watcher::~Watcher() {
  if (fd_ >= 0) ::close(fd_);
}

std::vector<WatchEvent> Watcher::scan(bool report_all) {
  std::vector<std::tuple<std::int64_t, std::string>> found; // mtime, name
  if (DIR* d = ::opendir(spec_.folder.c_str())) {
    while (const dirent* e = ::readdir(d)) {
      const std::string name = e->d_name;
      if (!matches(spec_, name)) continue;
      std::int64_t size = 0, mtime = 0;
      if (!stat_regular(join(spec_.folder, name), size, mtime)) continue;
      auto it = known_.find(name);
      const bool changed = it == known_.end() || it->second != std::make_pair(size, mtime);
      known_[name] = {size, mtime};
      if (report_all || changed) found.emplace_back(mtime, name);
    }
    ::closedir(d);
  }
  std::sort(found.begin(), found.end());
  std::vector<WatchEvent> out;
  for (const auto& [mtime, name] : found) out.push_back({join(spec_.folder, name), false});
  return out;
}

std::vector<WatchEvent> Watcher::read_inotify(std::chrono::milliseconds timeout) {
  pollfd p{fd_, POLLIN, 0};
  const int ready = ::poll(&p, 1, static_cast<int>(std::max<std::int64_t>(0, timeout.count())));
  std::vector<WatchEvent> out;
  if (ready <= 0) return out;
  std::set<std::string> closed, created;
  alignas(inotify_event) char buf[64 * 1024];
  for (;;) {
    const ssize_t n = ::read(fd_, buf, sizeof buf);
    if (n <= 0) break;
    for (ssize_t at = 0; at < n;) {
      const auto* ev = reinterpret_cast<const inotify_event*>(buf + at);
      at += static_cast<ssize_t>(sizeof(inotify_event) + ev->len);
      if (ev->len == 0 || (ev->mask & IN_ISDIR)) continue;
      const std::string name = ev->name;
      if (!matches(spec_, name)) continue;
      if (ev->mask & (IN_CLOSE_WRITE | IN_MOVED_TO)) closed.insert(name);
      else created.insert(name);
    }
  }
  for (const std::string& name : created)
    if (!closed.count(name)) out.push_back({join(spec_.folder, name), false});
  for (const std::string& name : closed) out.push_back({join(spec_.folder, name), true});
  return out;
}

std::vector<WatchEvent> Watcher::next(std::chrono::milliseconds timeout) {
  if (first_) {
    first_ = false;
    next_scan_ = std::chrono::steady_clock::now() + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                                        std::chrono::duration<double>(options_.poll_interval_s));
    return scan(true);
  }
  if (fd_ >= 0) return read_inotify(timeout);
  // Polling: scan at the interval, sleeping at most `timeout` for the next scan.
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  for (;;) {
    const auto now = std::chrono::steady_clock::now();
    if (now >= next_scan_) {
      next_scan_ = now + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                             std::chrono::duration<double>(options_.poll_interval_s));
      std::vector<WatchEvent> found = scan(false);
      if (!found.empty() || now >= deadline) return found;
    }
    if (now >= deadline) return {};
    std::this_thread::sleep_until(std::min(next_scan_, deadline));
  }
}

} // namespace frost::session
