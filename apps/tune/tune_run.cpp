#include "tune_run.hpp"

#include <chrono>
#include <cmath>
#include <cstdio>

#include "frost/core/error.hpp"
#include "frost/core/log.hpp"
#include "frost/core/version.hpp"
#include "frost/tuning/measure.hpp"
#include "frost/tuning/phase.hpp"
#include "frost/tuning/policy.hpp"
#include "frost/tuning/record.hpp"

namespace frost::tune_app {
namespace {

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

nlohmann::json config_json(const tuning::NamedConfig& c) {
  nlohmann::json j = nlohmann::json::object();
  for (const auto& [name, value] : c) j[name] = value;
  return j;
}

std::string short_number(double v) {
  char b[32];
  std::snprintf(b, sizeof b, "%.3g", v);
  return b;
}

} // namespace

RunSummary run_target(tuning::TuneTarget& target, const std::string& preset, const RunOptions& options, nlohmann::json& rows) {
  const tuning::KernelSpace& ks = target.space();
  const tuning::TuningSpace& space = ks.space;
  const std::vector<tuning::Configuration> configs = space.enumerate();
  RunSummary sum;
  sum.kernel = ks.kernel;
  sum.preset = preset;
  sum.space_size = configs.size();
  if (configs.empty()) FROST_THROW(ExitCode::Runtime, ks.kernel + ": no valid configuration on this device");
  std::optional<std::size_t> default_index;
  if (auto d = space.from_named(ks.default_config))
    for (std::size_t i = 0; i < configs.size(); ++i)
      if (configs[i] == *d) default_index = i;

  const tuning::SearcherKind kind =
      options.sweep ? tuning::SearcherKind::Exhaustive
                    : options.searcher.value_or(tuning::offline_searcher(configs.size()));
  tuning::StopRules rules = tuning::offline_stop_rules(configs.size(), kind);
  if (options.budget && !options.sweep) rules.max_configs = *options.budget;
  const std::string key = target.key().str();
  tuning::SearcherSetup setup{tuning::search_seed(options.seed, key), {}};
  if (default_index) setup.known.push_back(*default_index);
  tuning::SearchPhase phase(configs, tuning::make_searcher(kind, configs, setup), rules);

  std::printf("# %s\n# %s: %zu valid configurations, searcher %s, %s\n", target.describe().c_str(), ks.kernel.c_str(),
              configs.size(), tuning::to_string(kind), options.sweep ? "verify only" : "median of timed launches");
  std::printf("%6s  %-60s %10s %12s  %s\n", "index", "configuration", "median_ms", "difference", "status");
  const auto t0 = std::chrono::steady_clock::now();
  std::optional<double> best_median;
  while (auto next = phase.next()) {
    const std::size_t index = *next;
    const tuning::NamedConfig named = space.named(configs[index]);
    std::optional<double> ms;
    std::optional<double> difference;
    std::string status = "ok";
    tuning::Measurement m;
    try {
      if (options.verify || options.sweep) {
        difference = target.difference(named);
        if (!(*difference <= target.tolerance())) {
          status = "mismatch";
          ++sum.mismatched;
        } else if (*difference > sum.worst_difference) {
          sum.worst_difference = *difference;
        }
      }
      if (status == "ok" && !options.sweep) {
        // The verification launch was the warm-up (step 2 of docs/tune.md#offline-protocol) when
        // there was one.
        const bool warmed = difference.has_value();
        m = tuning::measure([&] { if (!warmed) target.sample_ms(named); }, [&] { return target.sample_ms(named); },
                            best_median);
        ms = m.median_ms;
        if (!m.lower_bound && (!best_median || *ms < *best_median)) best_median = ms;
        if (m.lower_bound) status = "slow (one sample)";
      }
    } catch (const std::exception& e) {
      status = std::string("failed: ") + e.what();
      ms.reset();
    }
    phase.report(index, status == "mismatch" ? std::nullopt : ms);
    if (default_index && index == *default_index) sum.default_ms = ms;
    std::printf("%6zu  %-60s %10s %12s  %s\n", index, tuning::describe(named).c_str(),
                ms ? std::to_string(*ms).c_str() : "-",
                difference ? short_number(*difference).c_str() : "-",
                status.c_str());
    nlohmann::json row{{"kernel", ks.kernel}, {"preset", preset}, {"index", index}, {"config", config_json(named)},
                       {"status", status}, {"samples", m.samples_ms.size()}};
    row["median_ms"] = ms ? nlohmann::json(*ms) : nlohmann::json(nullptr);
    row["difference"] = difference ? nlohmann::json(*difference) : nlohmann::json(nullptr);
    rows.push_back(row);
  }
  sum.tuning_s = seconds_since(t0);
  sum.explored = phase.explored();
  sum.invalid = phase.invalid();
  if (options.sweep) return sum;
  if (!phase.best()) FROST_THROW(ExitCode::Runtime, ks.kernel + " on " + preset + ": no configuration could run");
  const tuning::NamedConfig best = space.named(configs[*phase.best()]);
  sum.best = tuning::describe(best);
  sum.best_ms = phase.best_ms();

  // G2 of docs/tune.md#gpu-validation: the default and the best side by side, interleaved (ABAB), medians.
  if (options.bench_samples > 0 && default_index) {
    const tuning::NamedConfig def = space.named(configs[*default_index]);
    std::vector<double> a, b;
    target.sample_ms(def);
    target.sample_ms(best);
    for (int i = 0; i < options.bench_samples; ++i) {
      a.push_back(target.sample_ms(def));
      b.push_back(target.sample_ms(best));
    }
    sum.bench_default_ms = tuning::median(a);
    sum.bench_best_ms = tuning::median(b);
  }

  if (options.cache) {
    tuning::TuningRecord r = tuning::record_from_phase(key, space, phase, options.seed, "offline", default_index);
    const tuning::MeasureRules protocol;
    r.protocol = {1, static_cast<int>(protocol.min_samples), protocol.min_total_ms};
    r.gpu_uuid = target.gpu_uuid();
    r.tool = std::string("frost_tune ") + version_string();
    sum.recorded = options.cache->append(r);
  }
  return sum;
}

} // namespace frost::tune_app
