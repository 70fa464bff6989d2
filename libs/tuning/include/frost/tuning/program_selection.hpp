#pragma once
/// @file program_selection.hpp
/// @brief What a program does with a tunable kernel before its main loop
/// (docs/tune.md#lookup-order): pick the configuration for the policy from the user cache and the
/// shipped database, and say where it came from (logged once per kernel and problem key).
#include <string>

#include "frost/tuning/cache.hpp"
#include "frost/tuning/kernel_spaces.hpp"
#include "frost/tuning/policy.hpp"

namespace frost::tuning {

/// off: the kernel default. cached, auto, dynamic: exact, stale or similar record of the cache
/// (user cache in options.cache_dir, then the shipped database), else the kernel default.
/// Records whose best configuration is not a valid configuration of `space` (another device's
/// limits, another setting) are skipped. Tuning inside the run (auto, dynamic) is not done here.
Selection select_for_program(const TuningOptions& options, const TuningKey& key, const KernelSpace& space);

/// One line for the log: "fr_insert: BLOCK_DIM=8 ... [exact record of /path, tuned 2026-...]".
/// With auto or dynamic and no exact record it also says what happens next: for a kernel the
/// program tunes during the run (`tunes_in_run`, DynamicTuner) that auto decides after the first
/// timed call or that dynamic tunes; otherwise that this kernel is not tuned during the run.
std::string describe_selection(const std::string& kernel, const Selection& selection, const TuningOptions& options,
                               bool tunes_in_run = false);

} // namespace frost::tuning
