#include "frost/tuning/dynamic_tuner.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "frost/core/error.hpp"
#include "frost/tuning/decision.hpp"
#include "frost/tuning/random.hpp"
#include "frost/tuning/record.hpp"

namespace frost::tuning {

namespace {

/// Three fastest are re-measured once more at the end of a phase (docs/tune.md#dynamic-tuning-in-a-run).
constexpr std::size_t kConfirmCount = 3;

std::string fixed3(double v) {
  std::ostringstream os;
  os.setf(std::ios::fixed);
  os.precision(3);
  os << v;
  return os.str();
}

} // namespace

DynamicTuner::DynamicTuner(KernelSpace space, Setup setup)
    : space_(std::move(space)), setup_(std::move(setup)), configs_(space_.space.enumerate()) {
  FROST_EXPECTS(!configs_.empty(), "a tuned kernel needs at least one valid configuration");
  if (const auto d = space_.space.from_named(space_.default_config))
    default_index_ = index_of(configs_, *d);
  known_ = default_index_.value_or(0);
  if (const auto k = space_.space.from_named(setup_.selection.config))
    if (const auto i = index_of(configs_, *k)) known_ = *i;
  current_ = known_;

  const TunePolicy policy = setup_.options.policy;
  if (policy == TunePolicy::Off || policy == TunePolicy::Cached) {
    reason_ = std::string("--tune ") + to_string(policy);
  } else if (setup_.selection.source == ConfigSource::Exact) {
    reason_ = "exact record";
  } else {
    state_ = State::Probing; // auto decides from the first measured call; dynamic tunes after it
    reason_ = "probing";
  }
}

DynamicTuner::~DynamicTuner() = default;

NamedConfig DynamicTuner::named(std::size_t index) const {
  FROST_EXPECTS(index < configs_.size(), "configuration index in range");
  return space_.space.named(configs_[index]);
}

DynamicTuner::Step DynamicTuner::next(bool comparable) {
  ++calls_;
  if (state_ != State::Fixed && comparable && !outstanding_) {
    if (const auto index = next_timed()) {
      outstanding_ = *index;
      ++timed_calls_;
      return {*index, true};
    }
  }
  return {current_, false};
}

std::optional<std::size_t> DynamicTuner::next_timed() {
  switch (state_) {
  case State::Fixed: return std::nullopt;
  case State::Probing: return known_;
  case State::Tuning:
    if (queued_) {
      const std::size_t q = *queued_;
      queued_.reset();
      return q;
    }
    if (const auto n = phase_->next()) return n;
    start_confirming();
    return next_timed();
  case State::Confirming: return confirm_.back(); // report() ends the state when it empties
  }
  return std::nullopt;
}

void DynamicTuner::report(const Step& step, std::optional<double> ms) {
  FROST_EXPECTS(step.timed && outstanding_ && *outstanding_ == step.config,
                "DynamicTuner::report() answers the last timed step");
  outstanding_.reset();
  if (ms && !(std::isfinite(*ms) && *ms >= 0)) ms.reset();
  switch (state_) {
  case State::Fixed: return;
  case State::Probing:
    if (!ms) {
      // The known configuration cannot run here: nothing to compare against, keep the default.
      current_ = default_index_.value_or(known_);
      state_ = State::Fixed;
      reason_ = "the known configuration failed to launch";
      return;
    }
    known_ms_ = ms;
    decide_after_probe(*ms);
    return;
  case State::Tuning:
    phase_->report(step.config, ms);
    if (const auto b = phase_->best()) current_ = *b;
    return;
  case State::Confirming:
    confirm_.pop_back();
    if (ms) second_.emplace_back(step.config, *ms);
    if (confirm_.empty()) finish_confirming();
    return;
  }
}

void DynamicTuner::decide_after_probe(double ms) {
  const TunePolicy policy = setup_.options.policy;
  const double budget = static_cast<double>(std::max<std::int64_t>(1, setup_.options.budget));
  const double explored = std::min(budget, static_cast<double>(configs_.size()));
  bool pays = true;
  if (policy == TunePolicy::Auto) {
    AutoInputs in;
    in.calls = setup_.estimated_calls;
    in.explored = explored;
    in.t_well_ms = ms;
    if (setup_.selection.hit) in.avg_over_best = setup_.selection.hit->record.avg_over_best;
    in.compile_ms = 0; // every variant is compiled in (AOT)
    pays = dynamic_tuning_pays(in);
    const double ratio = in.avg_over_best.value_or(kDefaultAvgOverBest);
    const double needed = calls_needed(in.rp, explored, ratio, 0);
    std::ostringstream os;
    os << "auto: " << static_cast<long long>(setup_.estimated_calls) << " calls " << (pays ? ">=" : "<") << " "
       << static_cast<long long>(std::ceil(needed - 1e-9)) << " needed to amortise " << static_cast<long long>(explored)
       << " configurations (avg/best " << fixed3(ratio) << ")";
    reason_ = os.str();
  }
  if (!should_tune(policy, setup_.selection.source, pays)) {
    state_ = State::Fixed;
    return;
  }
  if (setup_.lock_device) {
    lock_ = setup_.lock_device();
    if (!lock_) {
      state_ = State::Fixed;
      reason_ = "another process holds the device's tuning lock";
      return;
    }
  }
  start_phase(ms);
}

void DynamicTuner::start_phase(double probe_ms) {
  const SearcherKind kind = dynamic_searcher(setup_.options, configs_.size());
  SearcherSetup s;
  s.seed = search_seed(setup_.options.seed, setup_.key);
  s.known.push_back(known_);
  if (setup_.selection.hit)
    for (const TimedConfig& t : setup_.selection.hit->record.top)
      if (const auto c = space_.space.from_named(t.config))
        if (const auto i = index_of(configs_, *c)) s.known.push_back(*i);
  const double remaining_s = probe_ms * std::max(0.0, setup_.estimated_calls - 1) / 1000.0;
  phase_ = std::make_unique<SearchPhase>(configs_, make_searcher(kind, configs_, s),
                                         dynamic_stop_rules(setup_.options, kind, remaining_s), setup_.clock);
  state_ = State::Tuning;
  if (setup_.options.policy == TunePolicy::Dynamic) reason_ = "--tune dynamic";
  // The probe measured the known configuration on real work: it is the phase's first step when
  // the searcher starts there (random with a known configuration, annealing), else it waits.
  if (const auto first = phase_->next()) {
    if (*first == known_) {
      phase_->report(known_, probe_ms);
      current_ = known_;
    } else {
      queued_ = first;
    }
  }
}

void DynamicTuner::start_confirming() {
  state_ = State::Confirming;
  reason_ += std::string("; phase ended (") + to_string(phase_->reason()) + ", " +
             std::to_string(phase_->explored()) + " configurations)";
  // Re-measured fastest last: confirm_ is consumed from the back.
  for (const Evaluation& e : phase_->top(kConfirmCount)) confirm_.insert(confirm_.begin(), e.index);
  if (confirm_.empty()) finish_confirming();
}

void DynamicTuner::finish_confirming() {
  state_ = State::Fixed;
  lock_.reset();
  std::optional<std::size_t> best;
  double best_mean = 0;
  for (const Evaluation& e : phase_->top(kConfirmCount)) {
    double sum = *e.ms;
    int n = 1;
    for (const auto& [index, ms] : second_)
      if (index == e.index) {
        sum += ms;
        ++n;
      }
    const double mean = sum / n;
    if (!best || mean < best_mean) {
      best = e.index;
      best_mean = mean;
    }
  }
  if (best) {
    current_ = *best;
    chosen_ms_ = best_mean;
  }
}

std::optional<TuningRecord> DynamicTuner::record() const {
  if (!phase_ || !phase_->best()) return std::nullopt;
  TuningRecord r = record_from_phase(setup_.key, space_.space, *phase_, setup_.options.seed, "dynamic",
                                     default_index_);
  if (chosen_ms_) {
    r.best = named(current_);
    r.best_ms = *chosen_ms_;
  }
  r.protocol = MeasureProtocol{0, 1, 0}; // one sample per configuration on real work
  return r;
}

std::string DynamicTuner::summary() const {
  std::ostringstream os;
  os << space_.kernel << ": " << describe(named(current_)) << " [";
  if (phase_) {
    os << "tuned in this run: " << phase_->explored() << " configurations in " << timed_calls_ << " timed of "
       << calls_ << " calls";
    if (known_ms_ && chosen_ms_ && *chosen_ms_ > 0)
      os << ", " << fixed3(*known_ms_) << " -> " << fixed3(*chosen_ms_) << " ms per call (" << fixed3(*known_ms_ / *chosen_ms_)
         << "x)";
  } else {
    os << to_string(setup_.selection.source) << ", not tuned";
  }
  if (!reason_.empty()) os << "; " << reason_;
  os << "]";
  return os.str();
}

} // namespace frost::tuning
