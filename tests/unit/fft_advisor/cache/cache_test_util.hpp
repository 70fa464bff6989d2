#pragma once
/// @file cache_test_util.hpp
/// @brief Helpers shared by the cache tests: records with chosen fields, and counting the
/// warnings frost logs while a piece of code runs.
#include <string>

#include "frost/fft/advisor_cache.hpp"

namespace frost::fft::test {

/// A small valid record: 1D answer of size `n`, the given source, time and memory need.
CacheRecord make_record(const std::string& key, const std::string& source = "heuristic",
                        const std::string& time = "2025-01-01T00:00:00.000Z", std::size_t required_bytes = 1024,
                        index_t n = 2304);

/// Sends frost's log to a file for its lifetime, so tests can count the warnings emitted.
class LogCapture {
public:
  explicit LogCapture(const std::string& path);
  ~LogCapture();
  LogCapture(const LogCapture&) = delete;
  LogCapture& operator=(const LogCapture&) = delete;
  /// Lines starting with "warning: " logged since construction.
  int warnings() const;
  std::string text() const;

private:
  std::string path_;
};

/// Reads a whole file ("" when missing).
std::string slurp(const std::string& path);
/// Appends raw text to a file.
void append_raw(const std::string& path, const std::string& text);

} // namespace frost::fft::test
