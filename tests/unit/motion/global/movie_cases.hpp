#pragma once
// Simulated movies of docs/movie_align.md#synthetic-movies shared by the global-alignment tests,
// and the error measure of docs/movie_align.md#global-accuracy.
//
// Every movie is 1024² x 20 at Ts 1 Å. The specimen and its motion come from frost::sim::simulate_movie
// (noise-free variant, expected counts 1 + 0.1·S_t); a noisy movie of dose D and contrast c redraws
// counts ~ Poisson(D·max(0, 1 + c·S_t)) from those same S_t with a fast sampler (the simulator's
// per-pixel std::poisson_distribution is slow enough to dominate the test time).
// Movies are made once per process: several tests align the same movie.
#include <cstdint>
#include <vector>

#include "frost/motion/global_alignment.hpp"
#include "frost/simulate/movie.hpp"

namespace frost::motion::test_movies {

struct Movie {
  View<const float> frames;   ///< 1024 x 1024 x 1 x 20
  sim::Trajectory trajectory; ///< the motion the frames were made with
};

/// dose <= 0 means noise-free (the simulator's expected counts at contrast 0.1).
Movie movie(sim::TrajectoryKind trajectory, double dose, double contrast, std::uint32_t seed);

/// Errors of estimated shifts against the truth s_t = -(g(t) - g(r)), r = the estimate's reference,
/// after removing the mean offset; per-frame Euclidean norms.
struct ShiftErrors {
  double rms = 0, max = 0, p95 = 0;
};
ShiftErrors shift_errors(const std::vector<Vec2>& shifts, int reference, const sim::Trajectory& truth);

/// GlobalSettings of docs/movie_align.md#global-accuracy: Ts 1 Å, R 30 Å, --maxShift 50 Å, defaults
/// otherwise.
GlobalSettings default_settings();

} // namespace frost::motion::test_movies
