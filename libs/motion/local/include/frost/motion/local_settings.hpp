#pragma once
/// @file local_settings.hpp
/// @brief Options of the local alignment (docs/movie_align.md#command-line) as the library takes them.
#include <string>

#include "frost/motion/control_points.hpp"
#include "frost/motion/global_settings.hpp"
#include "frost/motion/motion_model.hpp"

namespace frost::motion {

/// @brief Everything the local stage needs besides the frames and the global alignment.
/// Lengths in Å, shifts in processing (binned) pixels.
struct LocalSettings {
  /// Correlation settings shared with the global stage (docs/movie_align.md#aligning-one-patch:
  /// same filter formula, search radius in Å, pair band, robust solve, sub-pixel method, size
  /// rule). `mode`, `crop_frames` and the reference rule are ignored: patches always correlate
  /// pairs, transform the whole patch and take the global reference as gauge.
  GlobalSettings correlation;
  double min_local_resolution = 500.0; ///< --minLocalRes: requested patch edge [Å]
  int patches_x = 0, patches_y = 0;    ///< --patches NX NY (0: from --minLocalRes)
  int patches_average = 3;             ///< --patchesAvg a: frames summed in each patch image
  ControlPoints control_points;        ///< --controlPoints LX LY LT (resolved; `auto` by the caller)
  LocalModelKind model = LocalModelKind::Residual; ///< --local-model
  double bspline_lambda = 0;           ///< --bspline-lambda
  double max_local_rmsd = 2.0;         ///< --max-local-rmsd: fall back to the global model above this [px]
  /// The rounding correction of docs/movie_align.md#patch-stacks-and-the-rounding-correction:
  /// subtract the window mean of the rounding residuals of the global offsets. Only tests switch it
  /// off (it is the regression guard of the local-accuracy tests).
  bool rounding_correction = true;
};

/// "residual" / "total".
std::string to_string(LocalModelKind kind);
/// @brief "residual" or "total". @throw frost::Error(Usage) otherwise.
LocalModelKind parse_local_model(const std::string& text);

/// @brief Working patch size P for a requested edge of `requested` processing pixels
/// (docs/movie_align.md#patch-grid): the smallest even size >= requested (`Exact`) or the smallest
/// even 7-smooth size (`Fast`), never above the largest even size <= `limit` (the smaller frame
/// side) when requested fits there.
int patch_working_size(double requested, FftSizeRule rule, int limit);

} // namespace frost::motion
