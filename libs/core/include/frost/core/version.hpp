#pragma once
/// @file version.hpp
/// @brief Build information for `--version` and the first line of every run (libs/cli composes it).
#include <string>

namespace frost {

std::string version_string(); ///< "0.1.0"
std::string git_hash();       ///< short hash of the build's commit
std::string build_type();     ///< CMAKE_BUILD_TYPE
/// "CUDA runtime 13.0, driver 13.0, sm 90" or "CUDA off".
std::string cuda_versions();

} // namespace frost
