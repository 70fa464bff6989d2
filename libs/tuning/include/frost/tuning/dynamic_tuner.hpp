#pragma once
/// @file dynamic_tuner.hpp
/// @brief Dynamic tuning inside a program's main loop (docs/tune.md#dynamic-tuning-in-a-run): the
/// controller of one tunable kernel on one device. For every call of the kernel it says which
/// configuration to run and whether the call is a timed tuning step; the caller launches the
/// real work with that configuration, times timed steps (CUDA events, nothing else running on
/// the device) and reports the time. At the end it gives the record to append to the cache.
///
/// Protocol: the first comparable call runs the known configuration (exact/stale/similar
/// record or default) timed: t_well of docs/tune.md#when-dynamic-tuning-pays. `auto` then tunes only
/// when that rule predicts rp >= 0.9 for the program's estimate of its calls; `dynamic` always tunes
/// (both never after an exact hit). A phase takes one sample per configuration (random search by
/// default, the known configuration first, so the probe is its first step), stops by the rules of
/// docs/tune.md#budgets-and-stopping (budget, time cap of 10% of the estimated remaining kernel
/// time), then runs the three fastest once more and keeps the smallest mean of two samples. Calls
/// that are not comparable (another problem, e.g. a last partial batch) run the current best untimed.
///
/// Host-only, with an injectable clock, so the whole protocol is tested without a GPU. Not
/// thread-safe: callers with several threads hold a mutex around next() and report().
#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "frost/tuning/cache.hpp"
#include "frost/tuning/kernel_spaces.hpp"
#include "frost/tuning/phase.hpp"
#include "frost/tuning/policy.hpp"

namespace frost::tuning {

class DynamicTuner {
public:
  struct Setup {
    TuningOptions options;
    std::string key;              ///< TuningKey::str() of the kernel, device and problem
    Selection selection;          ///< what select_for_program found before the loop
    double estimated_calls = 0;   ///< the program's estimate of this kernel's calls on this device (n of the `auto` rule)
    Clock clock = steady_clock_seconds();
    /// Takes the per-device tuning lock (docs/tune.md#dynamic-tuning-in-a-run) when a phase is
    /// about to start: a non-null token held until the phase ends, or null when another process
    /// holds it (then no tuning). Empty: no lock needed.
    std::function<std::shared_ptr<void>()> lock_device;
  };

  enum class State {
    Fixed,     ///< no tuning (off, cached, exact hit, auto decided it does not pay, or done)
    Probing,   ///< the first comparable call measures the known configuration
    Tuning,    ///< a search phase runs one configuration per comparable call
    Confirming ///< the three fastest are measured a second time
  };

  /// One call of the kernel: the configuration (index into configs()) and whether to time it.
  struct Step {
    std::size_t config = 0;
    bool timed = false;
  };

  /// `space`: the kernel's space on this device.
  DynamicTuner(KernelSpace space, Setup setup);
  ~DynamicTuner();
  DynamicTuner(const DynamicTuner&) = delete;
  DynamicTuner& operator=(const DynamicTuner&) = delete;

  /// The configuration of the next call. `comparable`: the call has the problem the phase
  /// tunes for (only such calls are timed). At most one timed step is outstanding: while one
  /// is, further calls run the current best untimed.
  Step next(bool comparable = true);
  /// The time in ms of a timed step, or nullopt when its configuration could not run (the
  /// caller then redoes the work with current() and the configuration counts as invalid).
  void report(const Step& step, std::optional<double> ms);

  State state() const { return state_; }
  bool tuning() const { return state_ != State::Fixed; }
  /// The configuration untimed calls run now.
  std::size_t current() const { return current_; }
  /// The configuration the run started with (the selection's).
  std::size_t known() const { return known_; }
  const std::vector<Configuration>& configs() const { return configs_; }
  NamedConfig named(std::size_t index) const;
  const KernelSpace& space() const { return space_; }

  std::size_t calls() const { return calls_; }
  std::size_t timed_calls() const { return timed_calls_; }
  /// The probe's time of the known configuration, once measured.
  std::optional<double> known_ms() const { return known_ms_; }
  /// The kept configuration's time (mean of its two samples), once a phase ended.
  std::optional<double> chosen_ms() const { return chosen_ms_; }
  /// Whether a search phase ran (the run has something to record).
  bool searched() const { return phase_ != nullptr; }
  /// Why the run did or did not tune, for the log ("exact record", "auto: n=400 < 540 calls
  /// needed", "budget of 50 configurations reached", ...).
  const std::string& reason() const { return reason_; }

  /// The record of the phase (mode "dynamic"), with the kept configuration as best; nullopt when
  /// no phase ran or it measured nothing valid.
  std::optional<TuningRecord> record() const;
  /// One line for the log: source, configuration, tuning outcome and estimated speedup.
  std::string summary() const;

private:
  void decide_after_probe(double ms);
  void start_phase(double probe_ms);
  void start_confirming();
  void finish_confirming();
  std::optional<std::size_t> next_timed();

  KernelSpace space_;
  Setup setup_;
  std::vector<Configuration> configs_;
  std::size_t known_ = 0, current_ = 0;
  std::optional<std::size_t> default_index_;
  State state_ = State::Fixed;
  std::unique_ptr<SearchPhase> phase_;
  std::shared_ptr<void> lock_;
  std::optional<std::size_t> outstanding_;  ///< the timed step handed out and not reported yet
  std::optional<std::size_t> queued_;       ///< a phase step to hand out before asking the phase again
  std::vector<std::size_t> confirm_;        ///< Confirming: configurations still to re-measure
  std::vector<std::pair<std::size_t, double>> second_; ///< Confirming: second samples
  std::optional<double> known_ms_, chosen_ms_;
  std::size_t calls_ = 0, timed_calls_ = 0;
  std::string reason_;
};

} // namespace frost::tuning
