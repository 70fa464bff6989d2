#pragma once
/// @file env.hpp
/// @brief Switches read from the environment.

namespace frost {

/// True when the environment variable `name` is set to 1, yes, true or on (FROST_FSYNC,
/// FROST_LOG_TIMES); anything else, or unset, is false.
bool env_flag(const char* name);

} // namespace frost
