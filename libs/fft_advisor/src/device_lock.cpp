// The per-device measurement lock of docs/fft_advisor.md#measurement-lock: one process measures on
// a device at a time, across processes (flock on a file); a process that cannot get it falls back
// to the heuristic answer instead of producing numbers disturbed by another measurement.
#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <filesystem>

#include "frost/fft/file_lock.hpp"
#include "frost/core/log.hpp"
#include "frost/fft/advisor_cache.hpp"

namespace frost::fft {

namespace {

/// Opens (creating if needed) the lock file in `dir`; -1 when that is impossible.
int open_lock_file(const std::string& dir, const std::string& name) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  const std::string path = dir + "/" + name;
  int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  // An existing lock file in a read-only cache directory still works: flock needs no write access.
  if (fd < 0) fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  return fd;
}

} // namespace

DeviceLock::DeviceLock(const std::string& cache_dir, const std::string& device_uuid, double wait_s) {
  const std::string dir = cache_dir.empty() ? default_cache_dir() : cache_dir; // never "/device-..."
  const std::string name = "device-" + detail::file_safe_name(device_uuid) + ".lock";
  int fd = open_lock_file(dir, name);
  if (fd < 0) {
    // The device is local to this host, so a lock in the host's temporary directory still keeps
    // two measuring processes apart when the cache directory is read-only.
    std::error_code ec;
    const std::string tmp = std::filesystem::temp_directory_path(ec).string();
    fd = open_lock_file(ec ? std::string("/tmp") : tmp, "frost-" + name);
    if (fd < 0) {
      log_warning("cannot create the measurement lock " + dir + "/" + name + "; not measuring");
      return;
    }
  }
  if (detail::flock_wait(fd, LOCK_EX, wait_s)) {
    fd_ = fd;
    return;
  }
  const int e = errno;
  ::close(fd);
  log_warning("measurement lock " + dir + "/" + name +
              (e == ETIMEDOUT ? " is held by another process" : " cannot be taken") +
              "; using the heuristic answer");
}

DeviceLock::~DeviceLock() {
  if (fd_ >= 0) ::close(fd_); // closing releases the flock
}

} // namespace frost::fft
