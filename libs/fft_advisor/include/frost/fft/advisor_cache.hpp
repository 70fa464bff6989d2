#pragma once
/// @file advisor_cache.hpp
/// @brief The persistent answer cache of docs/fft_advisor.md#answer-cache: `fft-sizes.jsonl` in the cache
/// directory, one JSON record per line, appended under an exclusive flock; and the per-device
/// measurement lock of docs/fft_advisor.md#measurement-lock.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "frost/cache/cache_dir.hpp"
#include "frost/cache/file_lock.hpp"
#include "frost/cache/record_store.hpp"
#include "frost/fft/advisor_types.hpp"

namespace frost::fft {

/// The advisor's cache directory: `--cache-dir` if given, else the convention of
/// cache::default_cache_dir.
using cache::default_cache_dir;

/// Everything the cache keys an answer by (docs/fft_advisor.md#cache-key), besides the request itself.
struct CacheContext {
  std::string device_identity;   ///< Measurer::device_identity()
  std::string library_versions;  ///< Measurer::library_versions()
  Policy policy = Policy::Portable;
  int top = 0;                   ///< T of find (0 for heuristic answers)
};

/// The canonical key string (docs/fft_advisor.md#cache-key; fields in its order, '|'-separated).
std::string cache_key(const AdvisorRequest& req, const Profile& profile, const CacheContext& ctx);
/// 64-bit FNV-1a of the key.
std::uint64_t cache_key_hash(const std::string& key);

/// One stored answer.
struct CacheRecord {
  std::string key;
  Candidate answer;                       ///< the returned configuration (size, batch, options, estimate)
  std::optional<double> ms_per_signal;    ///< measured median; empty for heuristic answers
  std::optional<double> original_ms_per_signal;
  int candidates_measured = 0;
  Protocol protocol;
  std::string source = "heuristic";       ///< "heuristic" or "measured"
  std::string tool_version, host, time_iso8601, device_uuid;
  std::size_t required_bytes = 0;         ///< memory the answer needs
};

/// The cache file of one directory (a cache::RecordStore). Reading skips malformed lines (one
/// warning per file); duplicate keys prefer `measured`, then the newest. A directory that cannot
/// be written makes the cache read-only (one warning); cache I/O problems never fail the caller.
class AdvisorCache {
public:
  explicit AdvisorCache(std::string dir);
  const std::string& dir() const { return store_.dir(); }
  std::string file() const { return store_.path(); } ///< <dir>/fft-sizes.jsonl
  bool read_only() const { return store_.read_only(); }

  /// The best record for `key` whose requirement fits `mem_limit` (0 = no limit), else empty
  /// (a record that needs more memory than the limit counts as a miss).
  std::optional<CacheRecord> lookup(const std::string& key, std::size_t mem_limit = 0) const;
  /// Appends a record (one line of at most 4 KiB, under flock). Returns false when read-only.
  bool store(const CacheRecord& record);
  std::vector<CacheRecord> records() const;  ///< every readable record, in file order
  void clear();                              ///< removes the file
  void compact();                            ///< rewrites with one record per key (temp + rename)
  void export_to(const std::string& path) const;
  /// Appends the records of an export file; frost::Error(Input) naming the file and its first
  /// line that is not a record (nothing imported then).
  void import_from(const std::string& path);

private:
  cache::RecordStore store_;
};

/// One JSON line for a record, and back (nullopt for a malformed line).
std::string record_to_json(const CacheRecord& r);
std::optional<CacheRecord> record_from_json(const std::string& line);

/// Exclusive lock on `<dir>/device-<uuid>.lock` (docs/fft_advisor.md#measurement-lock), waited for
/// up to `wait_s` seconds.
class DeviceLock {
public:
  DeviceLock(const std::string& dir, const std::string& device_uuid, double wait_s);
  DeviceLock(const DeviceLock&) = delete;
  DeviceLock& operator=(const DeviceLock&) = delete;
  bool held() const { return fd_.valid(); }

private:
  cache::UniqueFd fd_; ///< closing it releases the flock
};

} // namespace frost::fft
