#pragma once
/// @file warn_once.hpp
/// @brief Each cache problem is reported once per process, however many lookups run into it.
#include <string>

namespace frost::cache {

/// True the first time `topic` is seen in this process (thread-safe).
bool first_time(const std::string& topic);

} // namespace frost::cache
