#pragma once
/// @file file_lock.hpp
/// @brief Whole-file advisory locks (flock) with a bounded wait and the other small pieces of the
/// persistent caches: the cache directory convention, locked appends of whole lines, warn-once
/// topics. Shared by the size cache (docs/fft_advisor.md#answer-cache), the device lock
/// (docs/fft_advisor.md#measurement-lock), the FFTW wisdom file (docs/fft_advisor.md#wisdom) and
/// the kernel tuning cache (libs/tuning, docs/tune.md#tuning-cache).
#include <chrono>
#include <cstdint>
#include <string>

namespace frost::fft {

/// `--cache-dir` if given, else $FROST_CACHE_DIR, else $XDG_CACHE_HOME/frost, else
/// $HOME/.cache/frost.
std::string default_cache_dir(const std::string& explicit_dir = "");

} // namespace frost::fft

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
/// The same format for another time (e.g. a pruning cut-off).
std::string iso8601_at(std::chrono::system_clock::time_point t);

/// `id` (a device UUID, a host name) made safe as part of a file name: characters other than
/// letters, digits, '-', '_' and '.' become '_' (so a strange identity can never name a path
/// outside the directory); empty becomes "unknown".
std::string file_safe_name(const std::string& id);

/// A timestamp that compares as text in time order: writers may give "...:SSZ" or
/// "...:SS.fffZ" (UTC), so the fraction is padded to nine digits. Other text is kept as is.
std::string time_order(const std::string& t);

/// Appends `lines` (each ending in '\n') to `path` (created if missing) in one write under an
/// exclusive lock, waiting at most `wait_s` for it. Starts on a fresh line when the file does
/// not end in one (a writer killed mid-line). Returns 0 or errno; a partial write is cut off
/// again so that no half line remains.
int append_locked(const std::string& path, const std::string& lines, double wait_s);

/// Errors that mean "this directory cannot be written" (as opposed to a transient failure).
bool is_permission_problem(int e);

/// How a persistent cache names itself in its warnings: `what` ("tuning cache"), the thing a
/// failed write loses ("record"), and the prefix of its first_time() topics ("tuning-"; the
/// read-only topic is shared with the cache's own check at construction).
struct CacheNames {
  std::string what, lost, topic;
};

/// Stores one record line (ending in '\n') of a cache: refuses lines over `max_bytes` (warning
/// with `key`), creates `dir`, appends to `file` with append_locked. A directory that refuses
/// writes sets `read_only` and is reported once; other failures are reported once per
/// directory. True when the line was stored.
bool append_cache_line(const std::string& dir, const std::string& file, const std::string& key,
                       const std::string& line, std::size_t max_bytes, double wait_s, const CacheNames& names,
                       bool& read_only);

/// Whether `file_name` can be created or appended to in `dir`, judged by the nearest existing
/// ancestor of `dir` (cache directories are only created on the first store).
bool directory_writable(const std::string& dir, const std::string& file_name);

/// True the first time `topic` is seen in this process: each cache problem is reported once,
/// however many lookups run into it.
bool first_time(const std::string& topic);

/// 16 lower-case hex digits.
std::string hex64(std::uint64_t v);

/// 64-bit FNV-1a of the bytes of `text` (keys, signatures, fingerprints).
std::uint64_t fnv1a64(const std::string& text);

} // namespace frost::fft::detail
