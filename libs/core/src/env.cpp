#include "frost/core/env.hpp"

#include <cstdlib>
#include <string>

namespace frost {

bool env_flag(const char* name) {
  const char* v = std::getenv(name);
  if (v == nullptr) return false;
  const std::string s(v);
  return s == "1" || s == "yes" || s == "true" || s == "on";
}

} // namespace frost
