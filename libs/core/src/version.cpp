#include "frost/core/version.hpp"

namespace frost {

const char* build_git_hash(); // generated at build time (scripts/cmake/FrostGitHash.cmake)

std::string version_string() { return FROST_VERSION; }
std::string git_hash() { return build_git_hash(); }
std::string build_type() { return FROST_BUILD_TYPE; }

} // namespace frost
