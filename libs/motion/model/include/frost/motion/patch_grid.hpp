#pragma once
/// @file patch_grid.hpp
/// @brief Where the local-alignment patches lie (docs/movie_align.md#patch-grid).
#include <vector>

#include "frost/motion/motion_model.hpp"

namespace frost::motion {

/// What the patch grid is computed from; all sizes in processing (binned) pixels.
struct PatchGridRequest {
  int width = 0, height = 0;       ///< X_b, Y_b
  double requested_size = 0;       ///< P_req = --minLocalRes / Ts_b (only used for automatic counts)
  int patch_size = 0;              ///< working patch size P (a fast FFT size >= P_req); 0: ceil(P_req)
  int count_x = 0, count_y = 0;    ///< --patches NX NY; 0: n = ceil(X_b / P_req)
  /// Global shifts to apply (or displacements: the border only depends on their spread), one
  /// per aligned frame; empty: no border.
  std::vector<Vec2> global_shifts;
};

/// Patch positions along one axis.
struct PatchAxis {
  int count = 0;              ///< n
  int border = 0;             ///< B = ceil(max d) - floor(min d) (possibly clamped, see below)
  int step = 0;               ///< distance between consecutive starts (0 when count = 1)
  std::vector<int> starts;    ///< first pixel of each patch
  std::vector<double> centres;///< start + (P-1)/2 (half pixel kept)
};

struct PatchGrid {
  int size = 0; ///< P
  PatchAxis x, y;
  /// True when the border had to shrink so that the patches stay inside the frame (W < P);
  /// patch extraction must then tolerate reads beyond the frame edge for the shifted frames.
  bool border_clamped = false;
  int count() const { return x.count * y.count; }
  /// Patch index p = iy·x.count + ix (row-major, x fastest).
  Vec2 centre(int p) const {
    return {x.centres[static_cast<std::size_t>(p % x.count)], y.centres[static_cast<std::size_t>(p / x.count)]};
  }
};

/// @brief The patch grid (docs/movie_align.md#patch-grid): counts ceil(X_b/P_req) unless given, border from
/// the spread of the global trajectory, window W = X_b - 2B, step = P - ceil((n·P - W)/(n - 1)), start_i = B
/// + i·step (first and last patch touch the window edges); one patch per axis is centred in the frame.
/// frost::Error(Usage) when P > X_b (or Y_b), P or a count is not positive, or neither P nor P_req is given.
PatchGrid make_patch_grid(const PatchGridRequest& request);

} // namespace frost::motion
