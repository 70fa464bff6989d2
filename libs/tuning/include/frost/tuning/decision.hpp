#pragma once
/// @file decision.hpp
/// @brief When dynamic tuning pays (docs/tune.md#when-dynamic-tuning-pays, KTT paper eqs. 3 to 5 with a
/// compile-time term): pure functions, so the `auto` policy can be tested without a GPU.
#include <cstdint>
#include <optional>

namespace frost::tuning {

/// Relative performance of a run of `n` kernel calls that explores `s` configurations first,
/// against a run that knew the kept configuration from the start:
/// rp = n t_well / (s t_avg + (n - s) t_well + s t_c). Times in one unit; requires n >= s >= 0.
double relative_performance(double n, double s, double t_well, double t_avg, double t_c);

/// Calls needed to reach `rp` (0 < rp < 1) after exploring `s` configurations:
/// n = rp s (t_avg / t_well - 1 + t_c / t_well) / (1 - rp).
double calls_needed(double rp, double s, double avg_over_well, double compile_over_well);

/// Random-search steps that find one of a fraction `r` of well-performing configurations with
/// probability `p` (KTT eq. 5): ceil(ln(1 - p) / ln(1 - r)); 0 < p < 1, 0 < r < 1.
std::int64_t steps_needed(double p, double r);

/// Defaults of docs/tune.md#when-dynamic-tuning-pays.
constexpr double kTargetRelativePerformance = 0.9;
constexpr double kDefaultAvgOverBest = 2.2;  ///< 1 / 0.45, the worst ratio reported
constexpr double kDefaultCompileMs = 150;    ///< per NVRTC compilation until one was measured

/// What the `auto` policy knows when it decides (docs/tune.md#when-dynamic-tuning-pays).
struct AutoInputs {
  double calls = 0;                        ///< the program's estimate of the kernel's calls in this run
  double explored = 0;                     ///< s: min(budget, valid configurations)
  double t_well_ms = 0;                    ///< time of the first measured call
  std::optional<double> avg_over_best;     ///< recorded ratio for this kernel, else kDefaultAvgOverBest
  double compile_ms = kDefaultCompileMs;   ///< mean compile time per explored configuration (0: AOT or cached binaries)
  double rp = kTargetRelativePerformance;
};

/// True when tuning dynamically reaches `rp` within the estimated number of calls.
bool dynamic_tuning_pays(const AutoInputs& in);

} // namespace frost::tuning
