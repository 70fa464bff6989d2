#pragma once
// Live sessions of frost_movie_align (docs/session.md#the-session-loop): the options, and the
// program's side of the loop of libs/motion_session (align one movie, write its outputs).
#include <string>
#include <vector>

#include "align_options.hpp"
#include "frost/cli/params.hpp"
#include "frost/motion/motion_backend.hpp"

namespace frost::movie_align {

/// --session, --watch, --watch-timeout, --poll, --retry-failed (--overwrite is shared with batch mode).
void define_session_options(cli::Params& p);

/// True when --session is given.
bool is_session_run(const cli::Params& p);

/// frost::Error(Usage) for session options without --session, and for output names without
/// {movie} or {movie_path}.
void validate_session_options(const cli::Params& p, const OutputPaths& pattern);

/// The hash of every option given that changes a movie's outputs (not the input, the session
/// options, devices, threads or logging): the journal refuses another one without --overwrite.
std::string session_parameter_hash(const cli::Params& p);

/// Runs the session with one worker per backend (`devices[i]` names backends[i] in the records:
/// "cpu" or "cuda:N"); returns the exit code (0, or the first failure's, or 3 for failures an
/// earlier run recorded). Outputs default to DIR/micrographs/{movie}.mrc and
/// DIR/motion/{movie}.star when no output option is given.
int run_session_command(const cli::Params& p, const std::vector<motion::MotionBackend*>& backends,
                        const std::vector<std::string>& devices, const AlignOptions& options, OutputPaths pattern);

} // namespace frost::movie_align
