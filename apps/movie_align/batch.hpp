#pragma once
// Batch mode (docs/movie_align.md#batch-mode-mpi-and-device-choice): -i names a text file with one
// movie per line; every movie is aligned in this process, outputs that exist are skipped unless
// --overwrite, and a failed movie is reported while the batch goes on.
#include <string>
#include <vector>

#include "align_options.hpp"

namespace frost::movie_align {

/// True for a movie list: extension .txt, .lst or .list.
bool is_movie_list(const std::string& path);

/// Movies of a list file: one per line; blank lines and lines starting with '#' are skipped;
/// relative paths that do not exist as given are taken relative to the list's folder.
/// frost::Error(Input) naming the file when it cannot be read or lists no movie.
std::vector<std::string> read_movie_list(const std::string& path);

/// The outputs of one movie: every `{movie}` in `pattern` replaced by the movie's file name
/// without folder and extension.
OutputPaths outputs_for_movie(const OutputPaths& pattern, const std::string& movie);

/// frost::Error(Usage) naming the option when a given output path lacks `{movie}` (every movie
/// would overwrite it).
void check_batch_patterns(const OutputPaths& pattern);

/// @brief Aligns every movie; returns 0 when all succeeded (or were skipped), otherwise the exit
/// code of the first failure, after trying every movie.
int run_batch(const std::vector<std::string>& movies, const AlignOptions& options, const OutputPaths& pattern);

} // namespace frost::movie_align
