#pragma once
/// @file file_lock.hpp
/// @brief Whole-file advisory locks (flock) with a bounded wait, and locked appends of whole lines:
/// what every persistent file of frost that several processes share is read and written under
/// (the record stores of record_store.hpp, the device locks of docs/fft_advisor.md#measurement-lock
/// and docs/tune.md#dynamic-tuning-in-a-run, the FFTW wisdom file of docs/fft_advisor.md#wisdom).
#include <string>

namespace frost::cache {

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
/// try). False on timeout (errno ETIMEDOUT) or error. Polls instead of blocking so that a stuck
/// holder can never hang the caller: cache and lock problems must only cost a warning or a
/// fallback.
bool flock_wait(int fd, int op, double wait_s);

/// Opens `path` with `flags` (plus O_CLOEXEC; mode 0644 when creating) and locks it with `op`.
/// The lock is only useful on the file the path names *now*: a rewrite renames a new file over
/// the path and clearing unlinks it, so after locking, the descriptor is checked against the path
/// and the open is retried when they differ. Returns an invalid UniqueFd with errno set on
/// failure (ENOENT when the file is missing and `flags` lacks O_CREAT; ETIMEDOUT on timeout).
UniqueFd open_locked(const std::string& path, int flags, int op, double wait_s);

/// Reads everything from the current offset of `fd`; false on a read error.
bool read_all(int fd, std::string& out);
/// Writes all of `data`; false on error (errno set).
bool write_all(int fd, const std::string& data);

/// Appends `lines` (each ending in '\n') to `path` (created if missing) in one write under an
/// exclusive lock, waiting at most `wait_s` for it. Starts on a fresh line when the file does
/// not end in one (a writer killed mid-line). Returns 0 or errno; a partial write is cut off
/// again so that no half line remains.
int append_locked(const std::string& path, const std::string& lines, double wait_s);

/// Errors that mean "this directory cannot be written" (as opposed to a transient failure).
bool is_permission_problem(int e);

/// `device-<id>.lock` with the device's UUID made file_safe_name(): the lock file of one device.
std::string device_lock_name(const std::string& device_uuid);

/// Opens (creating `dir` and the file if needed) the lock file `dir/name` for flock; an existing
/// lock file in a read-only directory still works (flock needs no write access). Invalid with
/// errno set when neither is possible.
UniqueFd open_lock_file(const std::string& dir, const std::string& name);

} // namespace frost::cache
