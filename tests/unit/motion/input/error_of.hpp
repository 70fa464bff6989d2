#pragma once
// The message and exit code of the frost::Error a callable throws, for the reference-image tests.
#include <functional>
#include <string>

#include "frost/core/error.hpp"

namespace frost::motion {

/// The message of the frost::Error `f` throws ("" when it throws none); its class in `code`.
inline std::string error_of(const std::function<void()>& f, ExitCode* code = nullptr) {
  try {
    f();
  } catch (const Error& e) {
    if (code) *code = e.code();
    return e.what();
  }
  return "";
}

} // namespace frost::motion
