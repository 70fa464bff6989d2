#pragma once
// One movie through frost_movie_align: the pipeline of libs/motion (load, align, render;
// docs/movie_align.md#pipeline-and-backends) on the program's backend, then every output written
// as one set. Used once in single-movie mode and per line in batch mode.
#include <functional>
#include <string>

#include "align_options.hpp"
#include "frost/motion/load_ahead.hpp"
#include "frost/motion/motion_backend.hpp"
#include "frost/motion/motion_model.hpp"
#include "frost/motion/movie_pipeline.hpp"

namespace frost::movie_align {

/// What the program reports about an aligned movie.
struct MovieSummary {
  int frames = 0;              ///< aligned frames
  int reference = 0;           ///< absolute 0-based reference frame
  bool local_model = false;    ///< the written model has a B-spline field
  motion::Vec2 last_shift_raw; ///< global shift to apply of the last aligned frame [raw px]
  std::string alignment_path;  ///< the -o file written
  double seconds = 0;          ///< aligning and writing (not the wait between them)
  double write_seconds = 0;    ///< writing the outputs (with MovieHooks::inspect)
  double inspect_seconds = 0;  ///< of write_seconds, MovieHooks::inspect (a session's quality metrics)
};

/// What a live session adds to one movie's run (docs/session.md#the-session-loop): more sums to
/// render (the halves of the half-sum FRC), and a look at the movie and its alignment before the
/// outputs are written (the record's fields).
struct MovieHooks {
  std::function<motion::RenderRequest(motion::RenderRequest)> render;
  std::function<void(const motion::LoadedMovie&, const motion::MovieAlignment&)> inspect;
};

/// @brief Default -o: `<root>_align.star` of the first output given (--oavg first, then the
/// order of --help), never beside the movie (the raw-data folder); "" when `out` names none.
std::string default_alignment_path(const OutputPaths& out);

/// @brief Aligns `movie` on `backend` and writes every output named in `out` as one set
/// (OutputSet: all appear together, or none). frost::Error: Input (3) for unreadable files, fewer
/// than 3 frames, reference size mismatches, an output that would hold NaN/Inf (naming the stage)
/// or overflow --float16; Usage (2) for settings that do not fit this movie (frame ranges, missing
/// pixel size, more patches or control points than the movie holds), checked before the frames
/// are loaded; Device (4) from the backend.
MovieSummary process_movie(const std::string& movie, motion::MotionBackend& backend, const AlignOptions& options,
                           const OutputPaths& out, const MovieHooks& hooks = {});

/// @brief The same with the movie taken from `loader` (loaded ahead when it was started for it),
/// and `next`, when not empty, started on `loader` once this movie is loaded, so that it loads
/// while this one aligns (docs/movie_align.md#loading-ahead).
MovieSummary process_movie(const std::string& movie, motion::LoadAhead& loader, const AlignOptions& options,
                           const OutputPaths& out, const MovieHooks& hooks, const std::string& next);

/// @brief process_movie in two halves: aligns now (errors as process_movie) and returns the
/// write half, which runs MovieHooks::inspect, writes and commits the outputs, and may run on
/// another thread later (a live session writes one movie while the next aligns). `options` must
/// outlive it. The movie's frames are released before it returns; its sums are kept.
std::function<MovieSummary()> align_for_writing(const std::string& movie, motion::LoadAhead& loader,
                                                const AlignOptions& options, const OutputPaths& out,
                                                const MovieHooks& hooks, const std::string& next);

} // namespace frost::movie_align
