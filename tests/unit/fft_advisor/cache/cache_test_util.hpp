#pragma once
/// @file cache_test_util.hpp
/// @brief Helpers shared by the cache tests: records with chosen fields, and counting the
/// warnings frost logs while a piece of code runs.
#include <string>

#include "frost/test/log_capture.hpp"

#include "frost/fft/advisor_cache.hpp"

namespace frost::fft::test {

/// A small valid record: 1D answer of size `n`, the given source, time and memory need.
CacheRecord make_record(const std::string& key, const std::string& source = "heuristic",
                        const std::string& time = "2025-01-01T00:00:00.000Z", std::size_t required_bytes = 1024,
                        index_t n = 2304);



// The log capture and file helpers are shared with the other cache tests (tests/support).
using frost::test::append_raw;
using frost::test::LogCapture;
using frost::test::slurp;

} // namespace frost::fft::test
