#pragma once
// The frost_fft_advisor subcommands that are not recommend/find/benchmark, and small helpers.
#include <string>
#include <vector>

#include "frost/cli/params.hpp"
#include "frost/fft/advisor_cache.hpp"
#include "frost/core/device.hpp"
#include "frost/fft/fftw_wisdom_file.hpp"
#include "frost/fft/heuristic.hpp"
#include "frost/fft/versions.hpp"

namespace frost::advisor_app {

/// `cache list | show KEY | clear | export FILE | import FILE | compact`
/// (docs/fft_advisor.md#subcommands-and-reference-aliases).
int run_cache(const cli::Params& p, const std::vector<std::string>& positional);
/// `wisdom --sizes A,B,...`: plans each size with --fftw-effort and saves FFTW wisdom
/// (docs/fft_advisor.md#wisdom).
int run_wisdom(const cli::Params& p);

using fft::cpu_model;
using fft::cufft_version_number;

} // namespace frost::advisor_app
