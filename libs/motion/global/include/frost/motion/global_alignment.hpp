#pragma once
/// @file global_alignment.hpp
/// @brief The global alignment of a movie (docs/movie_align.md#global-alignment): per-frame shifts to apply.
#include <string>
#include <vector>

#include "frost/core/image.hpp"
#include "frost/motion/global_settings.hpp"
#include "frost/motion/large_drift.hpp"
#include "frost/motion/motion_model.hpp"
#include "frost/motion/pair_correlation.hpp"
#include "frost/motion/pair_measurer.hpp"
#include "frost/motion/working_sizes.hpp"

namespace frost::motion {

/// One correlated pair and what the solver made of it.
struct PairRecord {
  PairMeasurement measurement;
  PairExclusion exclusion = PairExclusion::None; ///< excluded before the robust solve
  bool accepted = false;                         ///< used by the final solve
};

/// @brief Result of align_global. Shifts and positions in processing pixels.
struct GlobalAlignment {
  WorkingSizes sizes;
  GlobalMode mode = GlobalMode::Pairs;
  std::vector<Vec2> shifts;    ///< s_t = -(d_t - d_r): shift to apply to frame t (zero at the reference)
  std::vector<Vec2> positions; ///< d_t as solved (gauge d_0 = 0 in pairs mode, mean 0 in sum mode)
  int reference = 0;
  std::vector<PairRecord> pairs; ///< pairs mode: every correlated pair, ordered by i then j
  int outliers = 0;              ///< equations rejected by the robust rounds
  int edge_pairs = 0;            ///< pairs (or, in sum mode, peaks) on the search-radius boundary
  int excluded_pairs = 0;        ///< pairs left out by the large-drift selection
  int solver_rounds = 0;         ///< robust rounds (pairs) or iterations (sum)
  double r2_x = 0, r2_y = 0;     ///< R² per axis of the final solve (NaN in sum mode)
  double residual_rms_x = 0, residual_rms_y = 0; ///< over accepted equations [px]
  std::vector<std::string> warnings; ///< for the program's log (search radius, connectivity)
};

/// @brief Global alignment of the frames of `frames` (host or device; see pair_measurer.hpp):
/// the driver below for any backend. Same errors as the overloads that take host frames.
GlobalAlignment align_global(PairMeasurer& frames, const GlobalSettings& settings);

/// @brief The pairs-mode alignment from measurements already made (the patch stage measures the
/// pairs of many patch stacks at once): large-drift selection, robust least squares, reference.
/// `measured` must be the measurements of frame_pairs(frames, settings.max_pair_distance).
GlobalAlignment align_measured_pairs(const std::vector<PairMeasurement>& measured, int frames,
                                     const WorkingSizes& sizes, const GlobalSettings& settings);

/// The correlation options of `settings` at `sizes` (search radius in correlation pixels).
CorrelationOptions correlation_options(const WorkingSizes& sizes, const GlobalSettings& settings);

/// @brief Global alignment of N >= 3 frames of equal size
/// (docs/movie_align.md#steps-of-the-global-stage): filtered spectra, then pairs (all or banded) with
/// the large-drift selection and robust least squares, or the sum mode; then the reference frame.
/// Parallel over frames and pairs; results do not depend on the thread count.
/// @throw frost::Error(Usage) for fewer than 3 frames, frames of different sizes, or settings that
/// working_sizes() rejects.
GlobalAlignment align_global(const std::vector<View<const float>>& frames, const GlobalSettings& settings);
/// The same for a stack whose items (shape.n) are the frames.
GlobalAlignment align_global(View<const float> stack, const GlobalSettings& settings);

} // namespace frost::motion
