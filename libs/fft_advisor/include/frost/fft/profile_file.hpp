#pragma once
/// @file profile_file.hpp
/// @brief Size-model profiles from JSON files (`--profile-file`, docs/fft_advisor.md#profiles), so a new
/// CUDA release can be described without a new build.
#include <string>

#include "frost/fft/advisor_types.hpp"

namespace frost::fft {

/// Reads a profile:
/// {"name": "cuda13", "version": "cuda13-r1", "primes": [2,3,5,7,11], "single_extra_primes": [],
///  "real_rule": "always|above_regular|never", "complex_rule": "...", "kernel_model": true,
///  "regular_limit": [5103, 2187], "caps": [{"2": 11, "3": 7, ...}, {"2": 11, ...}]}
/// (regular_limit and caps: [float, double]). frost::Error(Input) naming the file and field.
Profile load_profile_file(const std::string& path);

/// The JSON text of a profile (the format load_profile_file reads).
std::string profile_to_json(const Profile& p);

} // namespace frost::fft
