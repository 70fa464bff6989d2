#include "frost/core/version.hpp"

namespace frost {

std::string version_string() { return FROST_VERSION; }
std::string git_hash() { return FROST_GIT_HASH; }
std::string build_type() { return FROST_BUILD_TYPE; }

} // namespace frost
