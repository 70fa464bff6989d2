#pragma once
/// @file policy.hpp
/// @brief The tuning policy and options every GPU-capable program accepts
/// (docs/tune.md#common-options), what each policy does with a cache lookup, and the searchers and
/// stopping rules of dynamic and offline tuning phases (docs/tune.md#searchers, #budgets-and-stopping).
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "frost/tuning/cache.hpp"
#include "frost/tuning/phase.hpp"
#include "frost/tuning/random.hpp"
#include "frost/tuning/searcher.hpp"

namespace frost::tuning {

/// off: kernel/architecture defaults and AOT variants only; cached: use the cache (exact,
/// stale, similar), never tune; auto: cached, and tune dynamically when the rule of
/// docs/tune.md#when-dynamic-tuning-pays says it pays; dynamic: always tune on a cache miss or a
/// stale or similar hit.
enum class TunePolicy { Off, Cached, Auto, Dynamic };
const char* to_string(TunePolicy policy);
/// "off", "cached", "auto" or "dynamic" ("full" is read as "dynamic"); throws
/// frost::Error(Usage) otherwise.
TunePolicy parse_tune_policy(const std::string& text);
/// A seed in decimal or as 0x-prefixed hex ("0x5eed"); throws frost::Error(Usage) otherwise.
std::uint64_t parse_tune_seed(const std::string& text);

/// Defaults of docs/tune.md#budgets-and-stopping and docs/tune.md#defaults.
constexpr std::int64_t kDynamicBudget = 50;
constexpr double kDynamicMaxSeconds = 120;
constexpr double kDynamicTimeFraction = 0.1;   ///< of the program's remaining GPU time
constexpr std::size_t kOfflineExhaustiveLimit = 2000;
constexpr std::size_t kOfflineAnnealingBudget = 500;
constexpr std::size_t kAnnealingNoImprovementStop = 25;

/// The parsed common options (docs/tune.md#common-options).
struct TuningOptions {
  TunePolicy policy = TunePolicy::Auto;
  std::int64_t budget = kDynamicBudget;  ///< configurations per dynamic tuning phase
  /// Dynamic searcher; unset: random, or exhaustive when the space is not larger than the budget.
  std::optional<SearcherKind> searcher;
  std::uint64_t seed = kDefaultSeed;
  double time_s = kDynamicMaxSeconds;    ///< wall-time cap per tuning phase
  std::string cache_dir;                 ///< resolved tuning cache directory
  bool no_nvrtc = false;                 ///< restrict to AOT variants
};

/// Whether the policy reads the cache at all (not `off`).
bool uses_cache(TunePolicy policy);
/// Whether a tuning phase starts for a configuration found at `source`: never for off and
/// cached, never after an exact hit; auto only when `pays` (docs/tune.md#when-dynamic-tuning-pays),
/// dynamic always.
bool should_tune(TunePolicy policy, ConfigSource source, bool pays);

/// The dynamic searcher for a space of `space_size` valid configurations.
SearcherKind dynamic_searcher(const TuningOptions& options, std::size_t space_size);
/// Stopping rules of a dynamic phase: the budget, a time cap of min(--tune-time-s, 10% of the
/// program's estimate of its remaining GPU time when it has one), and for annealing 25
/// configurations without improvement.
StopRules dynamic_stop_rules(const TuningOptions& options, SearcherKind searcher,
                             std::optional<double> remaining_gpu_s = std::nullopt);
/// Offline (frost_tune): exhaustive up to 2,000 configurations, else annealing.
SearcherKind offline_searcher(std::size_t space_size);
/// Offline budget: the whole space up to 2,000 configurations, else 500; no time cap.
StopRules offline_stop_rules(std::size_t space_size, SearcherKind searcher);

/// CPU-only runs accept and ignore the options (docs/tune.md#common-options): logs that once per
/// process. True when this call logged the note.
bool note_tuning_ignored_on_cpu(const TuningOptions& options);
/// A GPU program none of whose kernels is tunable accepts the options too (docs/tune.md#common-options):
/// logs once that they have no effect there. True when this call logged the note.
bool note_no_tunable_kernels(const std::string& program, const TuningOptions& options);

} // namespace frost::tuning
