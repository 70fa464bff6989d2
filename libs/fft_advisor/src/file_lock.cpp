// flock with a bounded wait, and the descriptor/path identity check that makes appends safe
// against concurrent compaction (rename) and clearing (unlink); the cache directory convention
// and the other small helpers every persistent cache of frost shares.
#include "frost/fft/file_lock.hpp"

#include <fcntl.h>
#include <pwd.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <mutex>
#include <set>
#include <thread>

#include "frost/core/log.hpp"

namespace frost::fft {

std::string default_cache_dir(const std::string& explicit_dir) {
  if (!explicit_dir.empty()) return explicit_dir;
  const auto env = [](const char* name) -> std::string {
    const char* v = std::getenv(name);
    return v != nullptr ? v : "";
  };
  if (const std::string d = env("FROST_CACHE_DIR"); !d.empty()) return d;
  if (const std::string d = env("XDG_CACHE_HOME"); !d.empty()) return d + "/frost";
  std::string home = env("HOME");
  if (home.empty())
    if (const passwd* pw = ::getpwuid(::getuid()); pw != nullptr && pw->pw_dir != nullptr) home = pw->pw_dir;
  if (!home.empty()) return home + "/.cache/frost";
  return "/tmp/frost-cache-" + std::to_string(::getuid()); // no home at all (daemons, containers)
}

} // namespace frost::fft

namespace frost::fft::detail {

UniqueFd::~UniqueFd() {
  if (fd_ >= 0) ::close(fd_);
}

UniqueFd& UniqueFd::operator=(UniqueFd&& o) noexcept {
  if (this != &o) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = o.release();
  }
  return *this;
}

bool flock_wait(int fd, int op, double wait_s) {
  using clock = std::chrono::steady_clock;
  const clock::time_point deadline =
      clock::now() + std::chrono::duration_cast<clock::duration>(std::chrono::duration<double>(std::max(0.0, wait_s)));
  // Holders keep these locks for microseconds (one append), so start with short sleeps.
  auto pause = std::chrono::microseconds(100);
  for (;;) {
    if (::flock(fd, op | LOCK_NB) == 0) return true;
    if (errno == EINTR) continue;
    if (errno != EWOULDBLOCK) return false;
    const auto now = clock::now();
    if (now >= deadline) {
      errno = ETIMEDOUT;
      return false;
    }
    std::this_thread::sleep_for(std::min<clock::duration>(pause, deadline - now));
    pause = std::min(pause * 2, std::chrono::microseconds(5000));
  }
}

namespace {

/// True when `fd` is still the file at `path` (not renamed over, not unlinked).
bool names_same_file(int fd, const std::string& path) {
  struct stat a {}, b {};
  if (::fstat(fd, &a) != 0 || ::stat(path.c_str(), &b) != 0) return false;
  return a.st_dev == b.st_dev && a.st_ino == b.st_ino && a.st_nlink > 0;
}

} // namespace

UniqueFd open_locked(const std::string& path, int flags, int op, double wait_s) {
  using clock = std::chrono::steady_clock;
  const clock::time_point deadline =
      clock::now() + std::chrono::duration_cast<clock::duration>(std::chrono::duration<double>(std::max(0.0, wait_s)));
  // A replacement can only happen while someone holds the lock, so normally one retry
  // suffices; the whole loop shares one deadline so that a writer racing with repeated
  // compactions keeps trying instead of giving up after a fixed number of rounds.
  for (;;) {
    UniqueFd fd(::open(path.c_str(), flags | O_CLOEXEC, 0644));
    if (!fd.valid()) return {};
    const double left = std::chrono::duration<double>(deadline - clock::now()).count();
    if (!flock_wait(fd.get(), op, left)) return {};
    if (names_same_file(fd.get(), path)) return fd;
    if ((flags & O_CREAT) == 0 && ::access(path.c_str(), F_OK) != 0) {
      errno = ENOENT; // removed while we waited, and we must not create it
      return {};
    }
    if (clock::now() >= deadline) {
      errno = ETIMEDOUT;
      return {};
    }
  }
}

bool read_all(int fd, std::string& out) {
  char buf[65536];
  for (;;) {
    const ssize_t n = ::read(fd, buf, sizeof buf);
    if (n == 0) return true;
    if (n < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    out.append(buf, static_cast<std::size_t>(n));
  }
}

bool write_all(int fd, const std::string& data) {
  std::size_t done = 0;
  while (done < data.size()) {
    const ssize_t n = ::write(fd, data.data() + done, data.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    done += static_cast<std::size_t>(n);
  }
  return true;
}

std::string file_safe_name(const std::string& id) {
  std::string out = id.empty() ? std::string("unknown") : id;
  for (char& c : out) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
                    c == '_' || c == '.';
    if (!ok) c = '_';
  }
  return out;
}

std::string iso8601_now() { return iso8601_at(std::chrono::system_clock::now()); }

std::string iso8601_at(std::chrono::system_clock::time_point now) {
  const std::time_t t = std::chrono::system_clock::to_time_t(now);
  const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(now.time_since_epoch()).count() % 1000;
  std::tm tm {};
  ::gmtime_r(&t, &tm);
  char buf[64];
  const std::size_t n = std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%S", &tm);
  std::snprintf(buf + n, sizeof buf - n, ".%03dZ", static_cast<int>(ms));
  return buf;
}

std::string time_order(const std::string& t) {
  if (t.size() < 20 || t[10] != 'T' || (t[19] != 'Z' && t[19] != '.')) return t;
  std::string fraction;
  for (std::size_t i = 20; t[19] == '.' && i < t.size() && std::isdigit(static_cast<unsigned char>(t[i])); ++i)
    fraction += t[i];
  fraction.resize(9, '0');
  return t.substr(0, 19) + "." + fraction;
}

int append_locked(const std::string& path, const std::string& lines, double wait_s) {
  // Read access too: the last byte is checked below.
  UniqueFd fd = open_locked(path, O_RDWR | O_APPEND | O_CREAT, LOCK_EX, wait_s);
  if (!fd.valid()) return errno;
  struct stat st {};
  if (::fstat(fd.get(), &st) != 0) return errno;
  std::string data = lines;
  if (st.st_size > 0) {
    // A writer killed mid-line (no flock protects against that) would otherwise glue its half
    // line to ours and lose both; starting on a fresh line loses only the broken one.
    char last = '\n';
    if (::pread(fd.get(), &last, 1, st.st_size - 1) == 1 && last != '\n') data.insert(data.begin(), '\n');
  }
  if (!write_all(fd.get(), data)) {
    const int e = errno;
    if (::ftruncate(fd.get(), st.st_size) != 0) { /* nothing more we can do; readers skip it */ }
    return e;
  }
  return 0;
}

bool is_permission_problem(int e) { return e == EACCES || e == EPERM || e == EROFS || e == ENOTDIR || e == EISDIR; }

bool directory_writable(const std::string& dir, const std::string& file_name) {
  // access() is right for everyone except root, who is refused only by read-only mounts and by
  // paths through regular files; the caches' store() catches whatever this misses.
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::path p(dir);
  while (!p.empty() && !fs::exists(p, ec)) {
    if (p == p.parent_path()) break;
    p = p.parent_path();
  }
  if (p.empty()) p = ".";
  if (!fs::is_directory(p, ec)) return false;
  if (::access(p.c_str(), W_OK | X_OK) != 0) return false;
  const fs::path file = fs::path(dir) / file_name;
  return !(p == fs::path(dir) && fs::exists(file, ec) && ::access(file.c_str(), W_OK) != 0);
}

bool append_cache_line(const std::string& dir, const std::string& file, const std::string& key,
                       const std::string& line, std::size_t max_bytes, double wait_s, const CacheNames& names,
                       bool& read_only) {
  if (line.size() > max_bytes) {
    log_warning(names.what + ": record for '" + key.substr(0, 80) + "...' is " + std::to_string(line.size()) +
                " bytes (limit " + std::to_string(max_bytes) + "); not stored");
    return false;
  }
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  const int e = ec ? ec.value() : append_locked(file, line, wait_s);
  if (e == 0) return true;
  if (is_permission_problem(e)) {
    read_only = true;
    if (first_time(names.topic + "read-only:" + dir))
      log_warning(names.what + " directory " + dir + " is not writable (" + std::strerror(e) +
                  "); using the cache read-only");
  } else if (first_time(names.topic + "write:" + dir)) {
    log_warning("cannot write " + names.what + " " + file + " (" + std::strerror(e) + "); " + names.lost +
                " not stored");
  }
  return false;
}

bool first_time(const std::string& topic) {
  static std::mutex mutex;
  static std::set<std::string> seen;
  std::lock_guard<std::mutex> lock(mutex);
  return seen.insert(topic).second;
}

std::string hex64(std::uint64_t v) {
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(v));
  return buf;
}

std::uint64_t fnv1a64(const std::string& text) {
  std::uint64_t h = 14695981039346656037ull; // FNV-1a 64 offset basis
  for (unsigned char c : text) {
    h ^= c;
    h *= 1099511628211ull; // FNV-1a 64 prime
  }
  return h;
}

} // namespace frost::fft::detail
