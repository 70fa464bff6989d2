#pragma once
// One movie through the pipeline of docs/movie_align.md#the-cpu-backend: read -> global -> local -> render ->
// write. Used once in single-movie mode and per line in batch mode.
#include <string>

#include "align_options.hpp"
#include "frost/motion/motion_model.hpp"

namespace frost::movie_align {

/// What the program reports about an aligned movie.
struct MovieSummary {
  int frames = 0;              ///< aligned frames
  int reference = 0;           ///< absolute 0-based reference frame
  bool local_model = false;    ///< the written model has a B-spline field
  motion::Vec2 last_shift_raw; ///< global shift to apply of the last aligned frame [raw px]
  std::string alignment_path;  ///< the -o file written
  double seconds = 0;
};

/// @brief Default -o: `<oavg root>_align.star`, else `<movie root>_align.star`.
std::string default_alignment_path(const std::string& movie, const OutputPaths& out);

/// @brief Aligns `movie` and writes every output named in `out` (atomically, each file complete or
/// absent). frost::Error: Input (3) for unreadable files, fewer than 3 frames, reference size
/// mismatches; Usage (2) for settings that do not fit this movie (frame ranges, missing pixel size,
/// patches larger than the movie).
MovieSummary align_movie(const std::string& movie, const AlignOptions& options, const OutputPaths& out);

} // namespace frost::movie_align
