#pragma once
/// @file accumulated_motion.hpp
/// @brief RELION's accumulated global motion of a movie (docs/session.md#accumulated-motion).
#include <vector>

namespace frost::session {

struct AccumulatedMotion {
  double total = 0; ///< rlnAccumMotionTotal, Å
  double early = 0; ///< rlnAccumMotionEarly: steps into frames whose accumulated dose is <= the cutoff
  double late = 0;  ///< rlnAccumMotionLate: the other steps
  double max_frame_shift = 0; ///< the largest single step, Å
};

/// Sums the steps |s(f) - s(f-1)| of the per-frame global shifts `x_px`, `y_px` (pixels, one per
/// frame of the sum, first frame first) times `pixel_size_A`. The step into frame f (1-based)
/// is early when pre_exposure + f * dose_per_frame <= cutoff (RELION: frame <= (cutoff -
/// pre_exposure) / dose_per_frame); a dose per frame <= 0 (unknown) makes every step early, as
/// in RELION. Throws frost::Error(Runtime) when the two arrays differ in length.
AccumulatedMotion accumulated_motion(const std::vector<double>& x_px, const std::vector<double>& y_px,
                                     double pixel_size_A, double dose_per_frame, double pre_exposure = 0,
                                     double cutoff_e_per_A2 = 4.0);

} // namespace frost::session
