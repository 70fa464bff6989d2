// T5 of docs/tune.md#cpu-tests: a phase stops exactly at its budget, its wall-time budget (with an
// injected clock), its target time, and after 25 configurations without improvement.
#include <gtest/gtest.h>

#include "frost/core/error.hpp"
#include "frost/tuning/kernel_spaces.hpp"
#include "frost/tuning/phase.hpp"
#include "frost/tuning/policy.hpp"
#include "frost/tuning/random.hpp"

namespace frost::tuning {
namespace {

/// The BLOCK-only space (6 configurations) or the 54-configuration crop/filter space.
std::vector<Configuration> small() { return extrema_full_space(DeviceLimits{}).space.enumerate(); }
std::vector<Configuration> medium() { return fourier_crop_filter_space(DeviceLimits{}).space.enumerate(); }

SearchPhase phase(const std::vector<Configuration>& configs, SearcherKind kind, StopRules rules,
                  Clock clock = steady_clock_seconds()) {
  return SearchPhase(configs, make_searcher(kind, configs, {12345, {}}), rules, std::move(clock));
}

TEST(TuningStopT5, BudgetStopsAfterExactlyThatManyConfigurations) {
  const auto configs = medium();
  StopRules r;
  r.max_configs = 7;
  SearchPhase p = phase(configs, SearcherKind::Random, r);
  run_phase(p, [](const Configuration&) { return 1.0; });
  EXPECT_EQ(p.explored(), 7u);
  EXPECT_EQ(p.reason(), StopReason::Budget);
  EXPECT_FALSE(p.next()); // stays stopped
}

TEST(TuningStopT5, SpaceSmallerThanBudgetIsExhausted) {
  const auto configs = small();
  StopRules r;
  r.max_configs = 50;
  SearchPhase p = phase(configs, SearcherKind::Random, r);
  run_phase(p, [](const Configuration& c) { return 1.0 + static_cast<double>(c[0]); });
  EXPECT_EQ(p.explored(), 6u);
  EXPECT_EQ(p.reason(), StopReason::Exhausted);
  EXPECT_EQ(configs[*p.best()], (Configuration{32}));
}

TEST(TuningStopT5, TimeBudgetChecksAnInjectedClockBeforeEachConfiguration) {
  const auto configs = medium();
  double now = 100;
  StopRules r;
  r.max_seconds = 5;
  SearchPhase p = phase(configs, SearcherKind::Exhaustive, r, [&] { return now; });
  // Each measurement takes 1 s: configurations start at t = 0, 1, 2, 3, 4; at t = 5 the budget
  // is used up.
  run_phase(p, [&](const Configuration&) {
    now += 1;
    return 2.0;
  });
  EXPECT_EQ(p.explored(), 5u);
  EXPECT_EQ(p.reason(), StopReason::Time);
}

TEST(TuningStopT5, TargetStopsRightAfterTheFirstFastEnoughConfiguration) {
  const auto configs = medium();
  StopRules r;
  r.target_ms = 1.5;
  SearchPhase p = phase(configs, SearcherKind::Exhaustive, r);
  // Configuration 9 (in canonical order) is the first at or below the target.
  run_phase(p, [&](const Configuration& c) { return c == configs[9] ? 1.5 : 2.0; });
  EXPECT_EQ(p.explored(), 10u);
  EXPECT_EQ(p.reason(), StopReason::Target);
  EXPECT_EQ(*p.best(), 9u);
}

TEST(TuningStopT5, NoImprovementStopsAfterExactly25) {
  const auto configs = medium();
  StopRules r = offline_stop_rules(configs.size(), SearcherKind::Annealing);
  ASSERT_EQ(r.max_without_improvement, 25u);
  SearchPhase p = phase(configs, SearcherKind::Exhaustive, r);
  // Improving for the first 4 (times 10, 9, 8, 7), then never again; one failure in between.
  std::size_t n = 0;
  run_phase(p, [&](const Configuration&) -> std::optional<double> {
    ++n;
    if (n <= 4) return 11.0 - static_cast<double>(n);
    if (n == 10) return std::nullopt;
    return 7.0; // equal is not an improvement
  });
  EXPECT_EQ(p.explored(), 4u + 25u);
  EXPECT_EQ(p.reason(), StopReason::NoImprovement);
  EXPECT_EQ(p.invalid(), 1u);
  EXPECT_EQ(*p.best_ms(), 7.0);
  EXPECT_EQ(*p.best(), 3u); // the first configuration that reached 7 ms
}

TEST(TuningStopT5, HistoryTopAndAverage) {
  const auto configs = small();
  SearchPhase p = phase(configs, SearcherKind::Exhaustive, StopRules{});
  const double t[] = {4, 2, 0, 3, 2, 8}; // 0 marks an invalid configuration
  run_phase(p, [&](const Configuration& c) -> std::optional<double> {
    const double v = t[*index_of(configs, c)];
    if (v == 0) return std::nullopt;
    return v;
  });
  EXPECT_EQ(p.reason(), StopReason::Exhausted);
  EXPECT_EQ(p.invalid(), 1u);
  EXPECT_EQ(*p.best(), 1u);
  EXPECT_DOUBLE_EQ(*p.avg_over_best(), (4 + 2 + 3 + 2 + 8) / 5.0 / 2.0);
  const auto top = p.top(3);
  ASSERT_EQ(top.size(), 3u);
  EXPECT_EQ(top[0].index, 1u); // 2 ms, measured first
  EXPECT_EQ(top[1].index, 4u); // 2 ms
  EXPECT_EQ(top[2].index, 3u); // 3 ms
}

TEST(TuningStopT5, ReportMustAnswerTheLastNext) {
  const auto configs = small();
  SearchPhase p = phase(configs, SearcherKind::Exhaustive, StopRules{});
  const auto i = p.next();
  ASSERT_TRUE(i);
  EXPECT_THROW(p.report(*i + 1, 1.0), Error);
  EXPECT_THROW(p.next(), Error);
}

TEST(TuningStopT5, DefaultRulesOfDynamicAndOfflinePhases) {
  TuningOptions o;
  StopRules d = dynamic_stop_rules(o, SearcherKind::Random);
  EXPECT_EQ(d.max_configs, 50u);
  EXPECT_EQ(*d.max_seconds, 120.0);
  EXPECT_EQ(d.max_without_improvement, 0u);
  // 10% of the remaining GPU time when that is shorter than the cap.
  EXPECT_DOUBLE_EQ(*dynamic_stop_rules(o, SearcherKind::Random, 300.0).max_seconds, 30.0);
  EXPECT_DOUBLE_EQ(*dynamic_stop_rules(o, SearcherKind::Random, 5000.0).max_seconds, 120.0);
  EXPECT_EQ(dynamic_stop_rules(o, SearcherKind::Annealing).max_without_improvement, 25u);

  EXPECT_EQ(offline_searcher(2000), SearcherKind::Exhaustive);
  EXPECT_EQ(offline_searcher(2001), SearcherKind::Annealing);
  EXPECT_EQ(offline_stop_rules(275, SearcherKind::Exhaustive).max_configs, 275u);
  EXPECT_EQ(offline_stop_rules(5000, SearcherKind::Annealing).max_configs, 500u);
  EXPECT_FALSE(offline_stop_rules(275, SearcherKind::Exhaustive).max_seconds);

  EXPECT_EQ(dynamic_searcher(o, 50), SearcherKind::Exhaustive); // not larger than the budget
  EXPECT_EQ(dynamic_searcher(o, 51), SearcherKind::Random);
  o.searcher = SearcherKind::Annealing;
  EXPECT_EQ(dynamic_searcher(o, 10), SearcherKind::Annealing);
}

} // namespace
} // namespace frost::tuning
