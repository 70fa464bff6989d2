#include "frost/core/error.hpp"

#include <cstring>

namespace frost {

namespace {
std::string make_where(const char* file, int line) {
  if (file == nullptr) return {};
  // Keep the path relative to the source tree: the part from "libs/", "cuda/" or "apps/".
  const char* short_file = file;
  for (const char* root : {"libs/", "cuda/", "apps/", "tests/"}) {
    if (const char* p = std::strstr(file, root)) {
      short_file = p;
      break;
    }
  }
  return std::string(short_file) + ":" + std::to_string(line);
}
} // namespace

Error::Error(ExitCode code, const std::string& message, const char* file, int line)
    : std::runtime_error(message), code_(code), where_(make_where(file, line)) {}

void throw_input_error(const std::string& path, const std::string& problem) {
  throw Error(ExitCode::Input, path + ": " + problem);
}

void throw_usage_error(const std::string& message) { throw Error(ExitCode::Usage, message); }

} // namespace frost
