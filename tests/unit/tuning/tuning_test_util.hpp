#pragma once
/// @file tuning_test_util.hpp
/// @brief Helpers of the tuning tests: fixed keys and records, a synthetic cost function, and
/// counting the warnings frost logs while a piece of code runs.
#include <cstdint>
#include <optional>
#include <string>

#include "frost/test/log_capture.hpp"

#include "frost/tuning/key.hpp"
#include "frost/tuning/record.hpp"
#include "frost/tuning/space.hpp"

namespace frost::tuning::test {

/// A fixed device model and software stack (an H100 SXM with CUDA 12.4, frost 1.0).
DeviceModel h100();
SoftwareStack cuda124();
/// A key for `kernel` (version 1, the given signature) on h100()/cuda124() and `problem`.
TuningKey make_key(const std::string& kernel, std::uint64_t signature, const std::string& problem);
/// A small valid record for `key` with the given best time, explored count and time stamp.
TuningRecord make_record(const std::string& key, double best_ms, std::int64_t explored = 50,
                         const std::string& time = "2026-01-01T00:00:00.000Z", std::int64_t block = 16);

/// Deterministic synthetic kernel time of `c` in `space` (ms): a bowl over the value
/// positions plus a small hash term; nullopt ("invalid") for about one configuration in 23.
std::optional<double> synthetic_ms(const TuningSpace& space, const Configuration& c);

/// FNV-1a 64 of `s`, written here independently of the library's (the signature and key-hash
/// tests compare against it).
std::uint64_t reference_fnv1a64(const std::string& s);

// The log capture and file helpers are shared with the other cache tests (tests/support).
using frost::test::append_raw;
using frost::test::LogCapture;
using frost::test::slurp;

} // namespace frost::tuning::test
