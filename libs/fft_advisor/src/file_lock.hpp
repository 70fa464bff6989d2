#pragma once
/// @file file_lock.hpp
/// @brief Internal: whole-file advisory locks (flock) with a bounded wait, shared by the size
/// cache (§7.4), the device lock (§7.5) and the FFTW wisdom file (§9.3).
#include <string>

namespace frost::fft::detail {

/// Owns a POSIX file descriptor; closing it releases any flock taken through it.
class UniqueFd {
public:
  UniqueFd() = default;
  explicit UniqueFd(int fd) noexcept : fd_(fd) {}
  ~UniqueFd();
  UniqueFd(UniqueFd&& o) noexcept : fd_(o.release()) {}
  UniqueFd& operator=(UniqueFd&& o) noexcept;
  UniqueFd(const UniqueFd&) = delete;
  UniqueFd& operator=(const UniqueFd&) = delete;

  int get() const noexcept { return fd_; }
  bool valid() const noexcept { return fd_ >= 0; }
  int release() noexcept {
    const int fd = fd_;
    fd_ = -1;
    return fd;
  }

private:
  int fd_ = -1;
};

/// Takes flock(`op`) (LOCK_SH or LOCK_EX) on `fd`, waiting at most `wait_s` seconds (0: one
/// try). False on timeout or error. Polls instead of blocking so that a stuck holder can never
/// hang the caller: cache and lock problems must only cost a warning or a fallback.
bool flock_wait(int fd, int op, double wait_s);

/// Opens `path` with `flags` (plus O_CLOEXEC; mode 0644 when creating) and locks it with `op`.
/// The lock is only useful on the file the path names *now*: compaction renames a new file over
/// the path and clear() unlinks it, so after locking, the descriptor is checked against the path
/// and the open is retried when they differ. Returns an invalid UniqueFd with errno set on
/// failure (ENOENT when the file is missing and `flags` lacks O_CREAT; ETIMEDOUT on timeout).
UniqueFd open_locked(const std::string& path, int flags, int op, double wait_s);

/// Reads everything from the current offset of `fd`; false on a read error.
bool read_all(int fd, std::string& out);
/// Writes all of `data`; false on error (errno set).
bool write_all(int fd, const std::string& data);

/// Current UTC time as "YYYY-MM-DDTHH:MM:SS.mmmZ": fixed width, so newer sorts later as text.
std::string iso8601_now();

} // namespace frost::fft::detail
