#pragma once
/// @file input_spec.hpp
/// @brief What `-i` names in a session: a folder, a quoted glob of file names in a folder, or one
/// file (docs/session.md#watcher).
#include <string>

namespace frost::session {

struct InputSpec {
  std::string folder;  ///< the folder watched ("." when none was given)
  std::string pattern; ///< fnmatch pattern of the file names in it ("*" for a folder)
};

/// "Movies/*.tiff" → {Movies, *.tiff}; "Movies" or "Movies/" (an existing folder) → {Movies, *};
/// "Movies/a.mrc" → {Movies, a.mrc}. Wildcards are allowed in the last component only:
/// frost::Error(Usage) for "Movies/*/a.tiff".
InputSpec parse_input_spec(const std::string& input);

/// Whether `name` (a file name without folder) is one of the spec's files. Names starting with '.'
/// never are: copy tools (rsync, scp -p) write to a hidden temporary and rename it into place.
bool matches(const InputSpec& spec, const std::string& name);

} // namespace frost::session
