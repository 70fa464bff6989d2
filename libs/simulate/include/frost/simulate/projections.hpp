#pragma once
/// @file projections.hpp
/// @brief Particle images with known poses, shifts and CTF: ground truth for pose estimation
/// and reconstruction tests and for the demo.
#include <cstdint>
#include <limits>
#include <vector>

#include "frost/core/image.hpp"
#include "frost/ctf/ctf.hpp"
#include "frost/geometry/euler.hpp"

namespace frost::sim {

/// What is true about one simulated particle image.
struct ParticleTruth {
  geom::EulerAngles pose;         ///< ZYZ angles [deg] of the projection
  double dx = 0, dy = 0;          ///< displacement of the content in the image [px]
  ctf::CtfParams ctf;             ///< used when ProjectionSetup::apply_ctf
  /// The shift frost/Xmipp/RELION metadata stores for this image: s = -d (shiftX = -dx) [px].
  double metadata_shift_x() const { return -dx; }
  double metadata_shift_y() const { return -dy; }
};

/// How particles are drawn by random_particles().
struct ParticleDraw {
  int count = 100;
  double max_shift = 0;                      ///< displacements uniform in [-max, max]^2 [px]
  double defocus_min = 10000, defocus_max = 30000; ///< dU range [A]; dV = dU - U(0, 500)
  ctf::CtfParams microscope;                 ///< voltage, Cs, amplitude contrast taken from here
  std::uint32_t seed = 1;
};

/// Poses uniform over the sphere of directions (tilt = acos(U(-1,1))) with uniform rot/psi,
/// displacements and defocus as `draw` says. Deterministic for a seed.
std::vector<ParticleTruth> random_particles(const ParticleDraw& draw);

/// How images are rendered by render_projections().
struct ProjectionSetup {
  double pixel_size = 1.0;  ///< [A/px], for the CTF
  bool apply_ctf = false;   ///< multiply by the CTF (rendered in a 2N box, then cropped to N)
  double snr = std::numeric_limits<double>::infinity(); ///< var(signal)/var(noise); inf = no noise
  std::uint32_t seed = 1;   ///< noise seed (image i uses seed + i, so results do not depend on threads)
};

/// Projects `volume` (N^3) once per particle into an N x N x count stack.
Image<float> render_projections(View<const float> volume, const std::vector<ParticleTruth>& particles,
                                const ProjectionSetup& setup);

/// Mean over images of the per-image variance (used to set the noise level for an SNR).
double mean_image_variance(View<const float> stack);

} // namespace frost::sim
