#pragma once
/// @file log_capture.hpp
/// @brief Counting what frost logs while a piece of code runs, and small file helpers for the
/// cache tests (FFT advisor, tuning).
#include <string>

#include "frost/test/files.hpp" // slurp

namespace frost::test {

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

/// Appends raw text to a file.
void append_raw(const std::string& path, const std::string& text);

} // namespace frost::test
