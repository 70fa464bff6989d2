#pragma once
/// @file phase.hpp
/// @brief A tuning phase (docs/tune.md#budgets-and-stopping): a searcher plus the stopping rules (budget of
/// configurations, wall time, target time, no improvement) and the history of what was
/// measured. Step-wise, so a program's main loop can run one configuration per kernel call
/// (docs/tune.md#dynamic-tuning-in-a-run); run_phase() drives it to the end for blocking tuning and tests.
#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include "frost/tuning/searcher.hpp"

namespace frost::tuning {

/// When a phase stops; unset rules never trigger.
struct StopRules {
  std::size_t max_configs = 0;             ///< budget of explored configurations (0: the whole space)
  std::optional<double> max_seconds;       ///< wall-time budget of the phase
  std::optional<double> target_ms;         ///< stop after a configuration at least this fast
  std::size_t max_without_improvement = 0; ///< stop after this many in a row without a new best (0: off)
};

enum class StopReason { Running, Budget, Time, Target, NoImprovement, Exhausted };
const char* to_string(StopReason reason);

/// One measured configuration: its index and time in ms (nullopt: invalid).
struct Evaluation {
  std::size_t index = 0;
  std::optional<double> ms;
};

/// Seconds from a monotonic clock; injectable so that time budgets can be tested.
using Clock = std::function<double()>;
Clock steady_clock_seconds();

class SearchPhase {
public:
  /// `configs` must outlive the phase. The wall-time budget counts from construction.
  SearchPhase(const std::vector<Configuration>& configs, std::unique_ptr<Searcher> searcher, StopRules rules,
              Clock clock = steady_clock_seconds());

  /// The next configuration to measure, or nullopt once the phase has stopped (reason() says
  /// why). The rules are checked here (budget, time) and in report() (target, no improvement).
  std::optional<std::size_t> next();
  /// The time of the configuration the last next() returned (nullopt: it could not run).
  void report(std::size_t index, std::optional<double> ms);

  bool stopped() const { return reason_ != StopReason::Running; }
  StopReason reason() const { return reason_; }
  const std::vector<Evaluation>& history() const { return history_; }
  std::size_t explored() const { return history_.size(); }
  std::size_t invalid() const { return invalid_; }
  /// The fastest valid configuration so far (the first measured among equal times).
  std::optional<std::size_t> best() const { return best_; }
  std::optional<double> best_ms() const;
  /// Mean time of the valid explored configurations divided by the best (avg_over_best of
  /// docs/tune.md#record).
  std::optional<double> avg_over_best() const;
  /// Up to `k` fastest valid evaluations, fastest first (ties: measured first).
  std::vector<Evaluation> top(std::size_t k) const;
  SearcherKind searcher() const { return searcher_->kind(); }
  const std::vector<Configuration>& configs() const { return configs_; }

private:
  const std::vector<Configuration>& configs_;
  std::unique_ptr<Searcher> searcher_;
  StopRules rules_;
  Clock clock_;
  double start_s_;
  std::vector<Evaluation> history_;
  std::optional<std::size_t> best_;
  double best_value_ = 0;
  std::size_t invalid_ = 0, without_improvement_ = 0;
  std::optional<std::size_t> pending_;
  StopReason reason_ = StopReason::Running;
};

/// Measures a configuration: its time in ms, or nullopt when it cannot run.
using MeasureFn = std::function<std::optional<double>(const Configuration&)>;
/// Runs the phase until it stops (blocking tuning, tests with synthetic costs).
void run_phase(SearchPhase& phase, const MeasureFn& measure);

} // namespace frost::tuning
