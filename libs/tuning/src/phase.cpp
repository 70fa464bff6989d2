#include "frost/tuning/phase.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>

#include "frost/core/error.hpp"

namespace frost::tuning {

const char* to_string(StopReason reason) {
  switch (reason) {
  case StopReason::Running: return "running";
  case StopReason::Budget: return "budget";
  case StopReason::Time: return "time";
  case StopReason::Target: return "target";
  case StopReason::NoImprovement: return "no-improvement";
  case StopReason::Exhausted: return "exhausted";
  }
  return "?";
}

Clock steady_clock_seconds() {
  return [] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
  };
}

SearchPhase::SearchPhase(const std::vector<Configuration>& configs, std::unique_ptr<Searcher> searcher, StopRules rules,
                         Clock clock)
    : configs_(configs), searcher_(std::move(searcher)), rules_(rules), clock_(std::move(clock)) {
  FROST_EXPECTS(searcher_ != nullptr, "a tuning phase needs a searcher");
  FROST_EXPECTS(clock_ != nullptr, "a tuning phase needs a clock");
  start_s_ = clock_();
}

std::optional<std::size_t> SearchPhase::next() {
  FROST_EXPECTS(!pending_, "SearchPhase::next() called before the previous configuration was reported");
  if (stopped()) return std::nullopt;
  if (rules_.max_configs > 0 && history_.size() >= rules_.max_configs) {
    reason_ = StopReason::Budget;
    return std::nullopt;
  }
  if (rules_.max_seconds && clock_() - start_s_ >= *rules_.max_seconds) {
    reason_ = StopReason::Time;
    return std::nullopt;
  }
  pending_ = searcher_->next();
  if (!pending_) reason_ = StopReason::Exhausted;
  return pending_;
}

void SearchPhase::report(std::size_t index, std::optional<double> ms) {
  FROST_EXPECTS(pending_ && *pending_ == index, "SearchPhase::report() does not answer the last next()");
  pending_.reset();
  if (ms && !std::isfinite(*ms)) ms.reset();
  searcher_->report(index, ms);
  history_.push_back({index, ms});
  if (!ms) ++invalid_;
  if (ms && (!best_ || *ms < best_value_)) {
    best_ = index;
    best_value_ = *ms;
    without_improvement_ = 0;
  } else {
    ++without_improvement_;
  }
  if (ms && rules_.target_ms && *ms <= *rules_.target_ms) reason_ = StopReason::Target;
  else if (rules_.max_without_improvement > 0 && without_improvement_ >= rules_.max_without_improvement)
    reason_ = StopReason::NoImprovement;
}

std::optional<double> SearchPhase::best_ms() const {
  if (!best_) return std::nullopt;
  return best_value_;
}

std::optional<double> SearchPhase::avg_over_best() const {
  if (!best_ || best_value_ <= 0) return std::nullopt;
  double sum = 0;
  std::size_t n = 0;
  for (const Evaluation& e : history_)
    if (e.ms) {
      sum += *e.ms;
      ++n;
    }
  return sum / static_cast<double>(n) / best_value_;
}

std::vector<Evaluation> SearchPhase::top(std::size_t k) const {
  std::vector<Evaluation> valid;
  for (const Evaluation& e : history_)
    if (e.ms) valid.push_back(e);
  std::stable_sort(valid.begin(), valid.end(), [](const Evaluation& a, const Evaluation& b) { return *a.ms < *b.ms; });
  if (valid.size() > k) valid.resize(k);
  return valid;
}

void run_phase(SearchPhase& phase, const MeasureFn& measure) {
  while (const auto i = phase.next()) phase.report(*i, measure(phase.configs()[*i]));
}

} // namespace frost::tuning
