#pragma once
/// @file movie.hpp
/// @brief Synthetic dose-fractionated movies with known motion (docs/simulate.md#movies).
#include <cstdint>

#include "frost/core/image.hpp"
#include "frost/simulate/trajectory.hpp"

namespace frost::sim {

/// Upper limits of the count model: Poisson means stay below dose * (1 + contrast * |S|) / gain,
/// with |S| at most a few tens for h <= 10, far below where an integer Poisson draw overflows or
/// never ends (a contrast of 1e30 did).
constexpr double kMaxDose = 1e4;          ///< electrons per pixel per frame
constexpr double kMaxContrast = 10;       ///< c
constexpr double kMaxHighFrequency = 10;  ///< h

struct MovieSetup {
  int nx = 1024, ny = 1024, frames = 20;
  double pixel_size = 1.0;   ///< Ts [A/px]; sets the specimen's frequency bands
  double dose = 1.0;         ///< mean electrons per pixel per frame
  double contrast = 0.1;     ///< c: counts = dose * max(0, 1 + c * S)
  double high_frequency = 0; ///< h: S = S_lo + h * S_hi
  bool noise_free = false;   ///< frames are the expected counts (dose 1), no Poisson draw
  bool gain = false;         ///< draw a multiplicative gain g; raw counts ~ Poisson(lambda / g)
  TrajectoryKind trajectory = TrajectoryKind::T1;
  double time_constant = 4.0;///< T3 settling time (1.5 for the fast-drift variant)
  std::uint32_t seed = 1;
};

struct SimulatedMovie {
  Image<float> frames;   ///< nx x ny x frames raw counts (or expected counts when noise-free)
  Image<float> gain;     ///< nx x ny multiplicative gain (corrected = raw * gain); empty if none
  Image<float> specimen; ///< S on the frame grid at zero displacement (for quality checks)
  Trajectory trajectory; ///< the motion the frames were made with
};

/// Makes the movie. Deterministic for a seed and independent of the thread count.
SimulatedMovie simulate_movie(const MovieSetup& setup);

/// The specimen S (docs/simulate.md#specimen) on a canvas of cx x cy pixels: band-limited white noise,
/// |k| in (1/300, 1/20) 1/A, plus h times the (1/20, 1/2.2) band, each normalised to mean 0, std 1.
Image<float> make_specimen(index_t cx, index_t cy, double pixel_size, double high_frequency, std::uint32_t seed);

} // namespace frost::sim
