#pragma once
// frost_tune run / sweep on one target (docs/tune.md#offline-protocol; G1 and G2 of
// docs/tune.md#gpu-validation).
#include <cstdint>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "frost/tuning/cache.hpp"
#include "frost/tuning/searcher.hpp"
#include "frost/tuning/tune_target.hpp"

namespace frost::tune_app {

struct RunOptions {
  std::optional<tuning::SearcherKind> searcher; ///< unset: exhaustive up to 2,000 configurations, else annealing
  std::optional<std::size_t> budget;            ///< unset: the offline default
  std::uint64_t seed = tuning::kDefaultSeed;
  bool verify = true;           ///< check every configuration against the default's output first
  int bench_samples = 20;       ///< G2: interleaved samples of the default and the best (0: skip)
  bool sweep = false;           ///< verify every configuration, time nothing, write no record
  tuning::TuningCache* cache = nullptr; ///< where the record goes (nullptr: nowhere)
};

/// What one run found (one entry of the JSON document and one row of the summary table).
struct RunSummary {
  std::string kernel, preset;
  std::size_t space_size = 0, explored = 0, invalid = 0, mismatched = 0;
  double worst_difference = 0;       ///< largest difference among configurations that agreed
  std::optional<double> default_ms, best_ms;  ///< phase medians
  std::optional<double> bench_default_ms, bench_best_ms; ///< interleaved G2 medians
  std::string best;                  ///< the best configuration in words
  double tuning_s = 0;               ///< wall time of the search (and verification)
  bool recorded = false;
};

/// Runs the search (or the sweep) on `target`, prints one line per configuration to stdout and
/// appends one JSON object per configuration to `rows`.
RunSummary run_target(tuning::TuneTarget& target, const std::string& preset, const RunOptions& options, nlohmann::json& rows);

} // namespace frost::tune_app
