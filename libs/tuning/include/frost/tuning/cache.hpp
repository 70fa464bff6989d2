#pragma once
/// @file cache.hpp
/// @brief The persistent tuning cache (docs/tune.md#tuning-cache): `records.jsonl` in the user's tuning
/// directory (appended under an exclusive flock by any number of processes), read-only shipped
/// databases, the effective record per key, and the lookup order exact -> stale -> similar ->
/// architecture default -> kernel default.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "frost/cache/record_store.hpp"
#include "frost/tuning/key.hpp"
#include "frost/tuning/record.hpp"

namespace frost::tuning {

/// The cache directory (docs/tune.md#location-and-files): `explicit_dir` (`--tuning-cache`) if
/// given, else $FROST_TUNING_CACHE, else $FROST_CACHE_DIR/tuning, else $XDG_CACHE_HOME/frost/tuning,
/// else $HOME/.cache/frost/tuning (the FFT advisor's cache directory convention plus "/tuning").
std::string tuning_cache_dir(const std::string& explicit_dir = "");
/// `<install prefix>/share/frost/tuning` of the running executable (`<exe dir>/../share/...`),
/// or "" when the executable's path is unknown.
std::string shipped_database_dir();

/// Where a configuration in use came from (logged once per kernel and problem key,
/// docs/tune.md#lookup-order).
enum class ConfigSource { Exact, Stale, Similar, ArchDefault, Default, TunedNow };
const char* to_string(ConfigSource source);

/// A record found by lookup().
struct CacheHit {
  ConfigSource source = ConfigSource::Exact; ///< Exact, Stale or Similar
  TuningRecord record;
  bool shipped = false;                      ///< from a shipped database, not the user cache
  double max_ratio = 1;                      ///< largest size-edge ratio (Similar), else 1
};

struct LookupRequest {
  TuningKey key;
  std::vector<std::string> size_fields;  ///< problem-key fields that may differ for Similar
  /// Explored configurations the current policy would spend (its budget): records that explored
  /// at least this many are preferred when choosing the effective record of a key
  /// (docs/tune.md#writing-merging-and-compaction).
  std::int64_t budget = 0;
  /// Whether a record's best configuration can be used here (e.g. valid in this space for this
  /// problem); records failing it are skipped. Empty: every configuration is usable.
  std::function<bool(const NamedConfig&)> usable;
};

/// The effective record among records of one key (docs/tune.md#writing-merging-and-compaction): the smallest
/// best_ms among those that explored at least `budget` configurations (among all when none did), ties broken
/// by the newest time, then by the later position. Returns an index into `records`, or nullopt when empty.
std::optional<std::size_t> effective_record(const std::vector<const TuningRecord*>& records, std::int64_t budget);

class TuningCache {
public:
  /// Reads the user cache in `dir` ("" = tuning_cache_dir()) and every `*.jsonl` file of the
  /// shipped directories (in name order). Missing files are empty caches; malformed lines are
  /// skipped with one warning per file; an unwritable directory makes the cache read-only
  /// (one warning). Cache problems never fail the caller.
  explicit TuningCache(std::string dir = "", std::vector<std::string> shipped_dirs = {});

  const std::string& dir() const { return store_.dir(); }
  std::string records_file() const { return store_.path(); } ///< <dir>/records.jsonl
  bool read_only() const { return store_.read_only(); }
  /// Re-reads all files (another process may have appended, docs/tune.md#mpi-and-several-gpus).
  void reload();

  /// Levels 1 to 3 of the lookup order (docs/tune.md#lookup-order): exact (user cache, then
  /// shipped), stale (same problem, other software), similar (size fields within kMaxSimilarRatio,
  /// nearest first); nullopt on a miss.
  std::optional<CacheHit> lookup(const LookupRequest& req) const;

  /// Appends one record (hash computed; host, time and tool filled in when empty) as one line of
  /// at most kMaxRecordLineBytes, with O_APPEND under an exclusive flock. False (with one
  /// warning) when read-only, too long or not writable.
  bool append(const TuningRecord& record);

  /// The records of the user cache in file order (this schema only), and of the shipped files.
  std::vector<TuningRecord> records() const;
  std::vector<TuningRecord> shipped_records() const;
  /// Lines of other schema versions seen in the user cache (ignored, kept by compact()).
  std::size_t other_schema_lines() const { return other_schema_; }

  /// `frost_tune cache compact`: rewrites the user file (temporary file + rename, under the
  /// exclusive lock) with the effective record of each key (chosen with `budget`) and every
  /// line of another schema version, verbatim and in file order; malformed lines are dropped.
  /// Throws frost::Error(Input) when the cache is read-only or cannot be rewritten.
  void compact(std::int64_t budget = 0);

  /// `frost_tune cache prune`: rewrites the user file without the records tuned before `cutoff`
  /// (an ISO 8601 UTC time, compared as text); other-schema lines are kept. Returns how many
  /// records were removed. Throws like compact().
  std::size_t prune_before(const std::string& cutoff);
  /// `frost_tune cache export FILE`: the user cache's records (this schema), one JSON line each,
  /// written atomically to `path`. Returns the number written.
  std::size_t export_to(const std::string& path) const;
  /// `frost_tune cache import FILE`: appends every record of `path` (a records.jsonl of another
  /// cache or an export) to the user cache; lookups then take the effective record per key.
  struct ImportCounts {
    std::size_t imported = 0, other_schema = 0, skipped = 0; ///< skipped: malformed or not appended
  };
  ImportCounts import_from(const std::string& path);

private:
  using LineChooser = std::function<void(const std::vector<std::optional<TuningRecord>>& records, std::vector<bool>& keep)>;
  /// Rewrites the user file under the exclusive lock with the lines `choose` keeps (`keep` comes
  /// in with other-schema lines set; records[i] is set for this schema's records).
  void rewrite(const std::string& what, const LineChooser& choose);

  struct Stored {
    TuningRecord record;
    TuningKey key;
    bool shipped = false;
    std::size_t position = 0; ///< order of reading (later = newer among equal times)
  };
  /// Adds the records among `lines` (of the file `path`) to stored_.
  void read_lines(const std::string& path, const std::vector<std::string>& lines, bool shipped);

  cache::RecordStore store_; ///< the user cache
  std::vector<std::string> shipped_dirs_;
  std::vector<Stored> stored_;
  std::size_t other_schema_ = 0;
};

/// A kernel's fallbacks (levels 4 and 5 of docs/tune.md#lookup-order).
struct ArchDefault {
  int cc_major = 0, cc_minor = 0;
  NamedConfig config;
};
struct KernelDefaults {
  NamedConfig config;               ///< the kernel default: valid on every supported architecture
  std::vector<ArchDefault> per_arch; ///< per compute capability
};

/// The configuration to use and where it came from.
struct Selection {
  ConfigSource source = ConfigSource::Default;
  NamedConfig config;
  std::optional<CacheHit> hit; ///< the record, for Exact/Stale/Similar
};

/// The whole lookup order (docs/tune.md#lookup-order). `cache` null (policy `off`) skips levels 1 to 3. The
/// architecture default is the entry of the device's compute capability, else the entry of the
/// same major version with the largest minor version not above the device's.
Selection select_configuration(const TuningCache* cache, const LookupRequest& req, const KernelDefaults& defaults);

} // namespace frost::tuning
