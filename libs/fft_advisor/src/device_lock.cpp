// The per-device measurement lock of docs/fft_advisor.md#measurement-lock: one process measures on
// a device at a time, across processes (flock on a file); a process that cannot get it falls back
// to the heuristic answer instead of producing numbers disturbed by another measurement.
#include <sys/file.h>

#include <cerrno>
#include <filesystem>

#include "frost/core/log.hpp"
#include "frost/fft/advisor_cache.hpp"

namespace frost::fft {

DeviceLock::DeviceLock(const std::string& cache_dir, const std::string& device_uuid, double wait_s) {
  const std::string dir = cache_dir.empty() ? default_cache_dir() : cache_dir; // never "/device-..."
  const std::string name = cache::device_lock_name(device_uuid);
  cache::UniqueFd fd = cache::open_lock_file(dir, name);
  if (!fd.valid()) {
    // The device is local to this host, so a lock in the host's temporary directory still keeps
    // two measuring processes apart when the cache directory is read-only.
    std::error_code ec;
    const std::string tmp = std::filesystem::temp_directory_path(ec).string();
    fd = cache::open_lock_file(ec ? std::string("/tmp") : tmp, "frost-" + name);
    if (!fd.valid()) {
      log_warning("cannot create the measurement lock " + dir + "/" + name + "; not measuring");
      return;
    }
  }
  if (cache::flock_wait(fd.get(), LOCK_EX, wait_s)) {
    fd_ = std::move(fd);
    return;
  }
  const int e = errno;
  log_warning("measurement lock " + dir + "/" + name +
              (e == ETIMEDOUT ? " is held by another process" : " cannot be taken") +
              "; using the heuristic answer");
}

} // namespace frost::fft
