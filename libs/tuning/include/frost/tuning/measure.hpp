#pragma once
/// @file measure.hpp
/// @brief The offline measurement protocol (warm-up, samples and verification of
/// docs/tune.md#offline-protocol) without the GPU: how many timed samples a configuration gets and which
/// statistic is kept, and the check of a configuration's output against the default's. cuda/tuning supplies
/// the samples (CUDA events around one launch); this part is tested on the CPU with scripted samples.
#include <cstddef>
#include <functional>
#include <optional>
#include <vector>

namespace frost::tuning {

struct MeasureRules {
  std::size_t min_samples = 3;     ///< at least this many timed samples...
  double min_total_ms = 10.0;      ///< ...and at least this much summed kernel time,
  std::size_t max_samples = 50;    ///< but never more samples than this
  double slow_factor = 5.0;        ///< a first sample this many times the best median ends it
};

struct Measurement {
  double median_ms = 0;            ///< the statistic (median)
  std::vector<double> samples_ms;  ///< in the order taken (after the warm-up, which is not kept)
  bool lower_bound = false;        ///< stopped after one sample: slower than slow_factor x best
  double total_ms() const;
};

/// Runs `warm_up` once (module loading, first touch), then takes samples with `sample_ms` (one
/// timed launch each) under `rules`; `best_median_ms` is the best median of the configurations
/// measured before (none for the first). A sample must be finite and non-negative.
Measurement measure(const std::function<void()>& warm_up, const std::function<double()>& sample_ms,
                    std::optional<double> best_median_ms, const MeasureRules& rules = {});

/// Median of `values` (mean of the middle two for an even count); 0 for none.
double median(std::vector<double> values);

/// The verification of docs/tune.md#offline-protocol: max |out - ref| / max |ref| (0 when both are
/// all zero; infinite when `out` holds NaN/Inf or differs from an all-zero reference).
double relative_max_difference(const float* reference, const float* output, std::size_t n);

/// True when relative_max_difference(...) <= tolerance.
bool outputs_agree(const float* reference, const float* output, std::size_t n, double tolerance,
                   double* difference = nullptr);

} // namespace frost::tuning
