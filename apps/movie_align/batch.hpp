#pragma once
// Batch mode (docs/movie_align.md#batch-mode-mpi-and-device-choice): -i names a text file with one
// movie per line; every movie is aligned in this process, outputs that exist are skipped unless
// --overwrite, and a failed movie is reported while the batch goes on.
#include <string>
#include <vector>

#include "align_options.hpp"
#include "frost/core/run_files.hpp"
#include "frost/motion/motion_backend.hpp"

namespace frost::movie_align {

/// True for a movie list: extension .txt, .lst or .list.
bool is_movie_list(const std::string& path);

/// Movies of a list file: one per line; blank lines and lines starting with '#' are skipped;
/// relative paths that do not exist as given are taken relative to the list's folder.
/// frost::Error(Input) naming the file when it cannot be read or lists no movie.
std::vector<std::string> read_movie_list(const std::string& path);

/// `{movie_path}` of `movie`: its path without the extension, relative to the working folder
/// when the movie lies inside it, else absolute without the leading `/` (lexically normalised,
/// links not followed), so that movies of different folders get different names.
std::string movie_path_key(const std::string& movie);

/// The outputs of one movie: every `{movie}` in `pattern` replaced by the movie's file name
/// without folder and extension, every `{movie_path}` by movie_path_key(); the default -o
/// (default_alignment_path) filled in.
OutputPaths outputs_for_movie(const OutputPaths& pattern, const std::string& movie);

/// frost::Error(Usage) naming the option when a given output path holds neither `{movie}` nor
/// `{movie_path}` (every movie would overwrite it).
void check_batch_patterns(const OutputPaths& pattern);

/// Every movie as an input and every movie's outputs (patterns expanded) as outputs, the shared
/// reference copies once: check_run_files then refuses two movies whose outputs collide (the
/// message names both) before the batch starts.
void add_batch_run_files(RunFiles& files, const std::vector<std::string>& movies, const OutputPaths& pattern);

/// A movie counts as done when every one of its outputs (and the shared reference copies) is
/// complete: non-empty and, for MRC files, as long as the header says.
bool all_outputs_complete(const OutputPaths& out);

/// @brief Aligns every movie on `backend`; returns 0 when all succeeded (or were skipped),
/// otherwise the exit code of the first failure, after trying every movie.
int run_batch(const std::vector<std::string>& movies, motion::MotionBackend& backend, const AlignOptions& options,
              const OutputPaths& pattern);

} // namespace frost::movie_align
