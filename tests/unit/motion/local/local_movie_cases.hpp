#pragma once
// Simulated T3 movies of docs/movie_align.md#synthetic-movies for the local-alignment tests, their ground
// truth and the error measures of docs/movie_align.md#local-accuracy.
//
// Movies are 1024² x 20 at Ts 1 Å. The noise-free movie comes from frost::sim::simulate_movie
// (expected counts 1 + 0.1·S_t); a noisy movie of dose D and contrast c redraws counts
// ~ Poisson(D·max(0, 1 + c·S_t)) from those S_t with a fast inversion sampler (one generator per
// frame). Movies are made once per process and cached.
#include <cstdint>
#include <vector>

#include "frost/core/image.hpp"
#include "frost/motion/local_alignment.hpp"
#include "frost/motion/local_measurements.hpp"
#include "frost/simulate/movie.hpp"

namespace frost::motion::local_test {

struct Movie {
  View<const float> frames;   ///< 1024 x 1024 x 1 x 20
  sim::Trajectory trajectory; ///< the motion the frames were made with
};

/// T3 with settling time `time_constant` (4 = the documented T3, 1.5 = fast-drift variant); dose <= 0 means
/// noise-free.
Movie t3_movie(double time_constant, double dose, double contrast, std::uint32_t seed);

/// Ground truth: the shift to apply at (x, y) of frame t relative to frame r, from 5
/// fixed-point iterations of s = E_r(x) - E_t(x - s).
Vec2 true_shift(const sim::Trajectory& truth, int t, int r, double x, double y);

struct Errors {
  double rms = 0, p95 = 0, max = 0;
};

/// Model error on the 9 x 9 grid over 10-90 % of the frame, all frames: the model's shift,
/// referenced to the model's reference frame r (its value at r subtracted), against true_shift(t, r).
Errors model_errors(const MotionModel& model, const sim::Trajectory& truth, index_t width, index_t height);

/// Patch measurement error: the measured total shift s_t - L_{p,t} of every patch and frame
/// against true_shift at the patch centre.
Errors patch_errors(const LocalAlignment& local, const sim::Trajectory& truth);

/// Settings of docs/movie_align.md#local-accuracy: Ts 1 Å, R 30 Å, --maxShift 50 Å; 5 x 5 patches
/// of 256 px, --patchesAvg 3, control points 4 x 4 x 5, residual model.
GlobalSettings global_settings();
LocalSettings local_settings();

} // namespace frost::motion::local_test
