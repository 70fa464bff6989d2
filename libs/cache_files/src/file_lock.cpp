// flock with a bounded wait, the descriptor/path identity check that makes appends safe against
// concurrent rewrites (rename) and clearing (unlink), and locked appends of whole lines.
#include "frost/cache/file_lock.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <filesystem>
#include <thread>

#include "frost/cache/cache_dir.hpp"

namespace frost::cache {


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

std::string device_lock_name(const std::string& device_uuid) {
  return "device-" + file_safe_name(device_uuid) + ".lock";
}

UniqueFd open_lock_file(const std::string& dir, const std::string& name) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  const std::string path = dir + "/" + name;
  UniqueFd fd(::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644));
  if (!fd.valid()) fd = UniqueFd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
  return fd;
}

} // namespace frost::cache
