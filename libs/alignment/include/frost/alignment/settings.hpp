#pragma once
/// @file settings.hpp
/// @brief What the per-pair estimator does (docs/align_significant.md#the-per-pair-estimator) and
/// what it returns.
#include <string>

#include "frost/alignment/math/peak.hpp"
#include "frost/alignment/math/pose2d.hpp"

namespace frost::align {

using geom::SubpixelMethod;

/// Options of the per-pair estimator; identical for every backend.
struct AlignSettings {
  int iters = 3;                          ///< iterations of each order
  SubpixelMethod subpixel = SubpixelMethod::Parabolic;///< peak refinement of both steps
  int shift_search = -1;                  ///< per-step shift search radius [px]; < 0 = ⌊X/4⌋
  double max_shift = -1;                  ///< reject a pair whose final shift norm exceeds this; < 0 = off
  bool check_mirrors = false;             ///< also align the X-mirrored image

  /// The search radius for images of size x.
  int shift_radius(int x) const { return shift_search >= 0 ? shift_search : x / 4; }
};

/// Stable text key of the settings (logs, benchmark records).
std::string to_string(const AlignSettings& s);
// The peak refinement is geom's; its parser is named here for the program's `--subpixel`.
using geom::parse_subpixel;

/// Result of aligning one image to one reference.
struct PairResult {
  float cc = 0;       ///< Pearson CC of the aligned image with the reference (−inf: rejected by max_shift)
  Pose2 pose;         ///< A: W_A[I] ≈ Ref (for a flipped result, A aligns the mirrored image)
  float flip = 0;     ///< 1 when the mirrored image won (float so a result is 8 floats for MPI sums)
};

} // namespace frost::align
