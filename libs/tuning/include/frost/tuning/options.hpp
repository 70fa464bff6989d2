#pragma once
/// @file options.hpp
/// @brief Declares and reads the common tuning options (docs/tune.md#common-options) on a program's
/// cli::Params, so that every GPU-capable program spells and documents them the same way.
#include "frost/tuning/policy.hpp"

namespace frost::cli {
class Params;
}

namespace frost::tuning {

/// Declares --tune, --tune-budget, --tune-searcher, --tune-seed, --tune-time-s, --tuning-cache
/// and --no-nvrtc (section "Tuning").
void declare_tuning_options(cli::Params& params);
/// Reads them back after Params::parse(); throws frost::Error(Usage) on bad values.
TuningOptions tuning_options_from(const cli::Params& params);

} // namespace frost::tuning
