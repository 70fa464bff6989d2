#pragma once
/// @file searcher.hpp
/// @brief Search strategies over the enumerated valid configurations of a space
/// (docs/tune.md#searchers): exhaustive, random without replacement, simulated annealing and KTT's
/// MCMC, all driven step by step (ask next(), tell report()) so that the same searcher serves
/// blocking offline tuning and non-blocking dynamic tuning inside a program's main loop.
/// Deterministic (docs/tune.md#determinism): the same configurations, seed and reported times give the same
/// sequence on every platform.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "frost/tuning/space.hpp"

namespace frost::tuning {

enum class SearcherKind { Exhaustive, Random, Annealing, Mcmc };
const char* to_string(SearcherKind kind);
/// "exhaustive", "random", "annealing" or "mcmc"; throws frost::Error(Usage) otherwise.
SearcherKind parse_searcher(const std::string& text);

/// One search over `configs` (indices refer to that list).
class Searcher {
public:
  virtual ~Searcher() = default;
  /// The configuration to measure next, or nullopt when the searcher has nothing left to try.
  /// Every configuration is returned at most once.
  virtual std::optional<std::size_t> next() = 0;
  /// The outcome of the configuration the last next() returned: its time in ms, or nullopt
  /// when it could not run (launch or compile failure, wrong result).
  virtual void report(std::size_t index, std::optional<double> ms) = 0;
  virtual SearcherKind kind() const = 0;
};

/// How a search starts.
struct SearcherSetup {
  std::uint64_t seed = 0;           ///< generator seed: search_seed(user seed, record key)
  /// Indices of configurations already known to be good (a stale or similar record's best and
  /// top list, an architecture default), best first. Random search measures them first (so its
  /// first step is never worse than what is known); annealing and MCMC start at the first.
  std::vector<std::size_t> known;
};

/// A searcher over `configs`, which must outlive it and must not be empty.
std::unique_ptr<Searcher> make_searcher(SearcherKind kind, const std::vector<Configuration>& configs,
                                        const SearcherSetup& setup);

/// Annealing constants (docs/tune.md#searchers).
constexpr double kAnnealingT0 = 0.144;          ///< T_0: a 10% slower neighbour is accepted with p = 0.5
constexpr double kAnnealingCooling = 0.95;      ///< T_k = T_0 * 0.95^k
constexpr int kAnnealingStepsToBest = 10;       ///< steps without a new best before jumping back to it
/// MCMC constants of KTT (docs/tune.md#lessons-from-ktt-umpalumpa-and-pycuda).
constexpr int kMcmcBootSteps = 10;
constexpr int kMcmcMaxDifferences = 2;
constexpr double kMcmcEscapeProbability = 0.02;

} // namespace frost::tuning
