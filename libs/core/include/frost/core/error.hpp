#pragma once
/// @file error.hpp
/// @brief frost's single error type and the exit codes it maps to at the program edge.
///
/// Library code throws frost::Error; `main` (libs/cli) turns it into the documented exit
/// status. The list of codes is append-only (docs/conventions.md#exit-codes).
#include <stdexcept>
#include <string>

namespace frost {

/// Process exit status for each class of failure.
enum class ExitCode : int {
  Ok = 0,
  Runtime = 1,      ///< anything not listed below
  Usage = 2,        ///< bad command line
  Input = 3,        ///< missing/unreadable file, bad header, inconsistent sizes
  Device = 4,       ///< no GPU, CUDA/cuFFT failure, out of device memory
  Interrupted = 130 ///< SIGINT
};

/// An error with a class (its exit code), a message for the user, and where it was raised.
class Error : public std::runtime_error {
public:
  Error(ExitCode code, const std::string& message, const char* file = nullptr, int line = 0);

  ExitCode code() const noexcept { return code_; }
  /// `file:line` of the throw site, or empty.
  const std::string& where() const noexcept { return where_; }

private:
  ExitCode code_;
  std::string where_;
};

/// Convenience constructors for the common classes.
[[noreturn]] void throw_input_error(const std::string& path, const std::string& problem);
[[noreturn]] void throw_usage_error(const std::string& message);

} // namespace frost

/// Precondition check that is always on; throws frost::Error(Runtime).
#define FROST_EXPECTS(cond, msg)                                                           \
  do {                                                                                     \
    if (!(cond))                                                                           \
      throw ::frost::Error(::frost::ExitCode::Runtime,                                     \
                           std::string("precondition failed: ") + (msg), __FILE__, __LINE__); \
  } while (0)

/// Throw a frost::Error of the given class with `file:line`.
#define FROST_THROW(code, msg) throw ::frost::Error((code), (msg), __FILE__, __LINE__)
