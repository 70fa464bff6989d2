#pragma once
/// @file record.hpp
/// @brief One tuning record (docs/tune.md#record): the persisted result of tuning one kernel for
/// one device model, software stack and problem, as one JSON line of the cache.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "frost/tuning/key.hpp"
#include "frost/tuning/random.hpp"
#include "frost/tuning/space.hpp"

namespace frost::tuning {

class SearchPhase;

struct TimedConfig {
  NamedConfig config;
  double ms = 0;
};

/// How the times were taken (docs/tune.md#offline-protocol and #dynamic-tuning-in-a-run).
struct MeasureProtocol {
  int warmup = 1;
  int min_samples = 1;
  double min_ms = 0;
};

struct TuningRecord {
  int schema = kSchemaVersion;
  std::string key;                      ///< TuningKey::str()
  NamedConfig best;
  double best_ms = 0;
  std::optional<double> default_ms;     ///< the default configuration's time, when measured
  std::vector<TimedConfig> top;         ///< the (up to) five fastest, fastest first
  std::optional<double> avg_over_best;  ///< mean explored time / best (feeds `auto`)
  std::int64_t explored = 0, space_size = 0, invalid = 0;
  std::string searcher;                 ///< "random", "annealing", ...
  std::uint64_t seed = kDefaultSeed;    ///< the user seed
  std::string mode;                     ///< "dynamic" or "offline"
  MeasureProtocol protocol;
  std::string source = "measured";
  std::string gpu_uuid, host, tool, time;
};

/// Records keep the five best configurations (docs/tune.md#record).
constexpr std::size_t kRecordTop = 5;
/// Longest line (newline included) the cache writes or reads (docs/tune.md#writing-merging-and-compaction).
constexpr std::size_t kMaxRecordLineBytes = 8192;

/// One JSON line (no newline), fields in the documented order (docs/tune.md#record); "hash" is
/// computed from the key.
std::string record_to_json(const TuningRecord& r);

/// What a cache line is: a record of this schema, a record of another schema version (ignored
/// but preserved), or malformed (unparsable, wrong types, missing fields, a hash that does not
/// match the key, longer than kMaxRecordLineBytes).
enum class LineKind { Record, OtherSchema, Malformed };
struct ParsedLine {
  LineKind kind = LineKind::Malformed;
  std::optional<TuningRecord> record;
};
ParsedLine parse_record_line(const std::string& line);

/// The record of a finished (or interrupted) phase: best, top five, avg_over_best, counts.
/// `default_index` is the default configuration's index in the phase's configurations, if any.
TuningRecord record_from_phase(const std::string& key, const TuningSpace& space, const SearchPhase& phase,
                               std::uint64_t user_seed, const std::string& mode,
                               std::optional<std::size_t> default_index = std::nullopt);

} // namespace frost::tuning
