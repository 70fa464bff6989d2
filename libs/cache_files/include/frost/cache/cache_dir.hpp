#pragma once
/// @file cache_dir.hpp
/// @brief Where frost keeps its caches (docs/conventions.md#environment-variables), and which
/// names are safe and writable there.
#include <string>

namespace frost::cache {

/// `explicit_dir` (`--cache-dir`) if given, else $FROST_CACHE_DIR, else $XDG_CACHE_HOME/frost,
/// else $HOME/.cache/frost.
std::string default_cache_dir(const std::string& explicit_dir = "");

/// Whether `file_name` can be created or appended to in `dir`, judged by the nearest existing
/// ancestor of `dir` (cache directories are only created on the first store).
bool directory_writable(const std::string& dir, const std::string& file_name);

/// `id` (a device UUID, a host name) made safe as part of a file name: characters other than
/// letters, digits, '-', '_' and '.' become '_' (so a strange identity can never name a path
/// outside the directory); empty becomes "unknown".
std::string file_safe_name(const std::string& id);

} // namespace frost::cache
