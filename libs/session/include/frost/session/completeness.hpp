#pragma once
/// @file completeness.hpp
/// @brief Whether a movie file is whole: its structure (MRC data size against the header, the
/// TIFF/EER directory chain) read without decoding a frame (docs/session.md#completeness).
#include <cstdint>
#include <string>

namespace frost::session {

enum class Completeness {
  Complete,  ///< closed or stable, and the structure is whole
  NotYet,    ///< still being written (not closed, size not yet stable, or empty)
  Truncated, ///< the structure promises more than the file holds; `reason` says what
  Invalid    ///< not a movie this check understands (bad header, broken directory)
};

/// "complete", "not-yet", "truncated", "invalid".
const char* to_string(Completeness c);

struct CompletenessResult {
  Completeness status = Completeness::NotYet;
  std::string reason;              ///< empty when complete
  std::int64_t file_bytes = 0;     ///< the file's size when checked
  std::int64_t expected_bytes = -1;///< what the structure needs, where it says (-1: unknown)
  std::int64_t frames = 0;         ///< frames (MRC sections, TIFF directories) when known
};

/// The structure check alone, by file name: .mrc/.mrcs/.st (MRC: 1024 + extended header + data
/// of nx*ny*nz in the header's mode), .tif/.tiff/.eer (the IFD chain ends at 0, and every IFD
/// and strip or tile lies inside the file); other names are Complete with a note. Never throws.
CompletenessResult check_movie_structure(const std::string& path);

/// The MRC and TIFF checks by themselves (what check_movie_structure() dispatches to).
CompletenessResult check_mrc_structure(const std::string& path);
CompletenessResult check_tiff_structure(const std::string& path);

} // namespace frost::session
