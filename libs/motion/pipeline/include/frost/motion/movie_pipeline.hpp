#pragma once
/// @file movie_pipeline.hpp
/// @brief Movie alignment as a library call (docs/movie_align.md#pipeline-and-backends): load a
/// movie onto a backend, then align it globally and locally and render its sums. The two halves
/// are separate calls so that a caller can load the next movie while one aligns; neither keeps
/// state between calls, and everything a program reports comes back in the result.
#include <map>
#include <memory>
#include <optional>
#include <string>

#include "frost/motion/dose_weighting.hpp"
#include "frost/motion/frame_accumulator.hpp"
#include "frost/motion/global_alignment.hpp"
#include "frost/motion/global_settings.hpp"
#include "frost/motion/interpolation_method.hpp"
#include "frost/motion/local_alignment.hpp"
#include "frost/motion/local_settings.hpp"
#include "frost/motion/motion_backend.hpp"
#include "frost/motion/motion_model.hpp"
#include "frost/motion/movie_frames.hpp"
#include "frost/motion/movie_reader.hpp"
#include "frost/motion/render_movie.hpp"

namespace frost::motion {

/// Everything the alignment of one movie needs besides the movie and the backend (the options
/// of docs/movie_align.md#command-line; messages name them).
struct MovieAlignSettings {
  MovieReadOptions read;               ///< frame range, gain, dark, defects, binning, EER, TIFF
  std::optional<double> pixel_size;    ///< --sampling [Å/px] (else the file header)
  int sum_first = -1, sum_last = -1;   ///< --frameRangeSum (-1: as the aligned range)
  bool sum_range_given = false;
  GlobalSettings global;               ///< pixel_size is filled per movie (Ts·b)
  bool local = true;                   ///< !--skipLocalAlignment
  LocalSettings local_settings;        ///< correlation filled per movie
  bool control_points_auto = false;    ///< --controlPoints auto
  double max_local_rmsd_raw = 2.0;     ///< --max-local-rmsd [raw px]
  InterpolationMethod interp = InterpolationMethod::BSpline3;
  bool dose_weight = false;            ///< --dose-weight: needs a known dose
  DoseSchedule dose;
  bool dose_known = false;             ///< --dose-per-frame given
  SumNormalization normalization = SumNormalization::Sum;
};

/// @brief A movie opened, checked against the settings, and its selected frames held by a
/// backend: the first half of the pipeline.
struct LoadedMovie {
  std::string path;
  /// The open movie: its gain, dark and bad-pixel mask as applied, and the file's facts.
  std::unique_ptr<MovieReader> reader;
  std::unique_ptr<MovieFrames> frames; ///< declared after the reader, which may serve it
  int first_frame = 0;                 ///< absolute 0-based first aligned frame
  int frame_count = 0;                 ///< aligned frames (>= 3)
  double pixel_size = 0;               ///< Ts, raw pixel size [Å/px]
  double binning = 1;                  ///< b = raw / processed size (x; shifts are scaled by it)
  SumRange sum_range;                  ///< absolute frames summed (--frameRangeSum)
  bool dose_known = false;             ///< given, or read from the EER metadata
  DoseSchedule dose;
  double load_seconds = 0;             ///< open, check and load the frames
};

/// @brief Opens `path`, checks it and the settings (>= 3 frames, a pixel size, the sum range,
/// sizes that fit the movie), then loads the frames onto `backend`; the dose of an EER movie
/// comes from its metadata when none is given. Logs the frames and where they are held.
/// @throw frost::Error: Input for unreadable files, fewer than 3 frames or reference size
/// mismatches; Usage for settings that do not fit this movie (checked before the frames are
/// loaded) and --dose-weight without a known dose; Device from the backend.
LoadedMovie load_movie(const std::string& path, const MovieAlignSettings& settings, MotionBackend& backend);

/// Which sums the render stage makes (none: no render; the flags of SumOptions).
struct RenderRequest {
  bool aligned_sum = false;    ///< Σ A_t (also what a power spectrum is computed from)
  bool unaligned_sum = false;
  bool halves = false;
  bool aligned_frames = false;
  bool dose_weighted = false;
  bool quality = false;        ///< FrameSums::quality (SumOptions::quality)
  bool any() const { return aligned_sum || unaligned_sum || halves || aligned_frames || dose_weighted || quality; }
};

/// @brief The second half of the pipeline: what it found and made, and what it took.
struct MovieAlignment {
  GlobalSettings global_settings;      ///< as used (pixel_size = Ts·b)
  GlobalAlignment global;
  LocalSettings local_settings;        ///< as used (control points resolved; when local ran)
  std::optional<LocalAlignment> local; ///< absent with settings.local false
  /// The model written: the local one (or the global model after its fallback), first_frame
  /// and binning set; every shift and coefficient finite.
  MotionModel model;
  std::optional<FrameSums> sums;       ///< when the request asked for any sum
  /// Wall seconds per stage: Load (from the LoadedMovie), Global, Local, Render.
  std::map<std::string, double> seconds;
  std::string device_times;            ///< MovieFrames::device_times() after the render
};

/// @brief Global alignment, local alignment (unless settings.local is false), then the sums of
/// `render` (docs/movie_align.md#pipeline-and-backends), on the backend that holds `movie`. Logs
/// each stage's result and warnings (frost::log is safe from several threads).
/// @throw frost::Error: Input (naming the movie) when a shift or coefficient is NaN or Inf,
/// before anything is rendered; Usage from the stages.
MovieAlignment align_movie(LoadedMovie& movie, const MovieAlignSettings& settings, const RenderRequest& render);

} // namespace frost::motion
