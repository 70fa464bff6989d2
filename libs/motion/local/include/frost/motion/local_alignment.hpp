#pragma once
/// @file local_alignment.hpp
/// @brief The local alignment of a movie (docs/movie_align.md#local-alignment): patch grid, patch stacks,
/// per-patch alignment, B-spline fit, and the fallback to the global model.
#include <optional>
#include <string>
#include <vector>

#include "frost/core/image.hpp"
#include "frost/motion/bspline_fit.hpp"
#include "frost/motion/global_alignment.hpp"
#include "frost/motion/local_settings.hpp"
#include "frost/motion/motion_model.hpp"
#include "frost/motion/patch_alignment.hpp"
#include "frost/motion/patch_grid.hpp"
#include "frost/motion/patch_measurer.hpp"
#include "frost/motion/patch_stack.hpp"
#include "frost/motion/working_sizes.hpp"

namespace frost::motion {

/// @brief Result of align_local. Everything in processing pixels and aligned-frame indices.
struct LocalAlignment {
  /// Global shifts and reference of the global stage plus the fitted field; after a fallback
  /// the field is absent (global model). first_frame 0 and binning 1: the caller sets them.
  MotionModel model;
  PatchGrid grid;
  WorkingSizes patch_sizes;     ///< P x P transformed, correlated at C_p
  PatchOffsets offsets;         ///< integer offsets and rounding residuals of the global shifts
  std::vector<PatchTrack> patches; ///< per patch, in patch order (row-major, x fastest)
  std::vector<PatchMeasurement> measurements; ///< the fit's targets (-L or -D), patch-major
  std::optional<BSplineFitResult> fit; ///< absent when the fit itself failed
  bool fell_back = false;       ///< the model is global-only although local alignment ran
  std::string fallback_reason;  ///< why (fit RMSD above --max-local-rmsd, fit failure)
  int patch_outliers = 0;       ///< pair equations rejected over all patches
  int patch_edge_pairs = 0;     ///< pair maxima on the search-radius boundary over all patches
  std::vector<std::string> warnings; ///< for the program's log
};

/// @brief Local alignment of the frames that `global` aligned (docs/movie_align.md#local-alignment):
/// make_patch_grid with P = patch_working_size(--minLocalRes / Ts_b), patch stacks at the integer global
/// offsets, align_patch for every patch (OpenMP over patches; each patch's result is independent of the
/// thread count and stored at its index, so the whole result is deterministic), the targets -L (residual)
/// or -D (total), fit_bspline_field on a BSplineField::make(LX, LY, LT, X_b, Y_b, N) grid, and the fallback
/// to the global model when the fit fails or its RMSD exceeds settings.max_local_rmsd [processing px].
/// @throw frost::Error(Usage) for fewer than 3 frames, a frame count that differs from the
/// global result, a movie smaller than one patch, control points < 3, or settings the global
/// stage rejects.
LocalAlignment align_local(const std::vector<View<const float>>& frames, const GlobalAlignment& global,
                           const LocalSettings& settings);
/// The same on frames held by any backend (host or device; see patch_measurer.hpp): the driver.
LocalAlignment align_local(PatchMeasurer& frames, const GlobalAlignment& global, const LocalSettings& settings);
/// The same for a stack whose items (shape.n) are the frames.
LocalAlignment align_local(View<const float> stack, const GlobalAlignment& global, const LocalSettings& settings);

} // namespace frost::motion
