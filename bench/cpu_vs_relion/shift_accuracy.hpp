#pragma once
// Estimated movie motion against frost_simulate's truth (docs/simulate.md, <oroot>_truth.star):
// shifts to apply [raw px], every trajectory re-referenced to the first frame.
#include <string>
#include <vector>

#include "frost/motion/motion_model.hpp"

namespace frost::bench {

struct MotionTruth {
  std::vector<motion::Vec2> global;        ///< per frame
  std::vector<motion::Vec2> points;        ///< the local truth grid (raw px)
  std::vector<std::vector<motion::Vec2>> local; ///< [point][frame]: the total shift at the point
};

MotionTruth read_motion_truth(const std::string& truth_star);

/// Writes the truth points as a coordinate STAR for `frost_movie_align trajectories`.
void write_truth_coordinates(const MotionTruth& truth, const std::string& path);

struct ShiftError {
  double global_rms = 0; ///< rms over frames of the global shift error (both referenced to the first frame)
  /// The same less the mean error over frames: trajectories are defined up to a constant, and the
  /// first frame's own error would otherwise offset every frame.
  double global_rms_centred = 0;
  double local_rms = 0;  ///< rms over the truth grid and frames of the total shift error
};

/// frost: the alignment STAR (-o) and the trajectories of the truth points (`--relion`).
ShiftError frost_shift_error(const std::string& align_star, const std::string& trajectories_star,
                             const MotionTruth& truth);

/// RELION: the per-micrograph motion STAR (global shifts plus the polynomial model).
ShiftError relion_shift_error(const std::string& motion_star, const MotionTruth& truth);

} // namespace frost::bench
