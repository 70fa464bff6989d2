// T6 of docs/tune.md#cpu-tests: the decision rule of policy `auto`
// (docs/tune.md#when-dynamic-tuning-pays) and the steps formula (docs/tune.md#budgets-and-stopping).
#include <gtest/gtest.h>

#include <cmath>

#include "frost/tuning/decision.hpp"

namespace frost::tuning {
namespace {

TEST(TuningDecisionT6, KttExampleNeeds900Calls) {
  // t_avg = 10 ms, t_well = 5 ms, s = 100, rp = 0.9, no compilation.
  EXPECT_NEAR(calls_needed(0.9, 100, 10.0 / 5.0, 0), 900, 1e-9);
  // And those 900 calls indeed reach rp = 0.9.
  EXPECT_NEAR(relative_performance(900, 100, 5, 10, 0), 0.9, 1e-12);
}

TEST(TuningDecisionT6, StepsFormula) {
  EXPECT_EQ(steps_needed(0.9, 0.01), 230);
  EXPECT_EQ(steps_needed(0.9, 0.05), 45);
  EXPECT_EQ(steps_needed(0.9, 0.094), 24);  // batched GEMM on a GTX 750
  EXPECT_EQ(steps_needed(0.9, 0.007), 328); // ... on a Xeon E5-2650
  EXPECT_EQ(steps_needed(0.75, 0.5), 2);    // exact quotient stays exact
  // 50 steps give 92% (r = 0.05) and 39% (r = 0.01).
  EXPECT_NEAR(1 - std::pow(0.95, 50), 0.92, 0.005);
  EXPECT_NEAR(1 - std::pow(0.99, 50), 0.39, 0.005);
}

TEST(TuningDecisionT6, ModelTableOfTheReconstructionExperiment) {
  // The table of docs/tune.md#when-dynamic-tuning-pays: t_well = oracle runtime / 1280 calls, t_avg =
  // t_well / (average speed), t_c = 45.5 s / 360, n = 1280; predicted rp for s = 50 and s = 360 in percent.
  struct Row {
    const char* gpu;
    double oracle_s, avg_speed, rp50, rp360;
  };
  const Row rows[] = {{"RTX 2080Ti", 100, 0.45, 90.0, 55.6},
                      {"GTX 1070", 349, 0.69, 96.6, 79.6},
                      {"GTX 750", 1019, 0.46, 95.1, 72.7},
                      {"GTX 680", 912, 0.52, 95.9, 76.4}};
  const double t_c = 45.5 / 360;
  for (const Row& r : rows) {
    const double t_well = r.oracle_s / 1280, t_avg = t_well / r.avg_speed;
    EXPECT_NEAR(100 * relative_performance(1280, 50, t_well, t_avg, t_c), r.rp50, 0.1) << r.gpu;
    EXPECT_NEAR(100 * relative_performance(1280, 360, t_well, t_avg, t_c), r.rp360, 0.1) << r.gpu;
  }
  EXPECT_NEAR(100.0 / 1280 * 1000, 78.1, 0.05); // the table's t_well of the 2080Ti [ms]
}

TEST(TuningDecisionT6, CallsNeededInvertsTheRelativePerformance) {
  const double s = 50, t_well = 2.0, t_avg = 4.4, t_c = 150;
  const double n = calls_needed(0.9, s, t_avg / t_well, t_c / t_well);
  EXPECT_NEAR(relative_performance(n, s, t_well, t_avg, t_c), 0.9, 1e-12);
}

TEST(TuningDecisionT6, AutoTunesOnlyWhenItPays) {
  AutoInputs in;
  in.explored = 50;
  in.t_well_ms = 10;
  in.compile_ms = 150; // defaults: avg/best 2.2, rp 0.9
  // n >= 0.9 * 50 * (2.2 - 1 + 15) / 0.1 = 7290 calls.
  in.calls = 7291;
  EXPECT_TRUE(dynamic_tuning_pays(in));
  in.calls = 7289;
  EXPECT_FALSE(dynamic_tuning_pays(in));
  // Cached binaries (no compile time) make tuning pay much earlier: 540 calls.
  in.compile_ms = 0;
  in.calls = 541;
  EXPECT_TRUE(dynamic_tuning_pays(in));
  in.calls = 539;
  EXPECT_FALSE(dynamic_tuning_pays(in));
  // A recorded ratio replaces the default 2.2: 1.1 needs 45 calls.
  in.avg_over_best = 1.1;
  in.calls = 46;
  EXPECT_TRUE(dynamic_tuning_pays(in));
  in.calls = 44;
  EXPECT_FALSE(dynamic_tuning_pays(in));
  // Nothing measured yet, or nothing to explore: no tuning.
  in.t_well_ms = 0;
  EXPECT_FALSE(dynamic_tuning_pays(in));
  in.t_well_ms = 10;
  in.explored = 0;
  EXPECT_FALSE(dynamic_tuning_pays(in));
}

} // namespace
} // namespace frost::tuning
