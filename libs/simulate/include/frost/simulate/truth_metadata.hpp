#pragma once
/// @file truth_metadata.hpp
/// @brief Ground truth of simulated data as the field's metadata files, so every frost program
/// (and RELION, Xmipp, Scipion) reads it like real data.
#include <string>
#include <vector>

#include "frost/metadata/metadata_file.hpp"
#include "frost/simulate/movie.hpp"
#include "frost/simulate/projections.hpp"

namespace frost::sim {

/// Facts about a particle stack that go into the optics block.
struct StackFacts {
  std::string stack_path; ///< written into rlnImageName / image as `N@stack_path`
  int box = 0;
  double pixel_size = 1.0;
  bool has_ctf = false;
  ctf::CtfParams microscope; ///< voltage, Cs, amplitude contrast
};

/// RELION 3.1 particles STAR (data_optics + data_particles): image names, true poses,
/// rlnOriginX/YAngst = -displacement * pixel size, defocus when CTF was applied, and
/// rlnRandomSubset alternating 1, 2 for half maps.
meta::MetadataFile particles_star(const std::vector<ParticleTruth>& particles, const StackFacts& facts);

/// The same particles as Xmipp metadata (image, angleRot/Tilt/Psi, shiftX/Y in px, ctf labels).
meta::MetadataFile particles_xmd(const std::vector<ParticleTruth>& particles, const StackFacts& facts);

/// Movie ground truth: data_general (list: size, frames, dose, pixel size, trajectory, seed),
/// data_global_shift (rlnMicrographFrameNumber 1-based; rlnMicrographShiftX/Y = shift to apply
/// = -g(t) relative to frame 1, in raw pixels; frostDisplacementX/Y = g(t)), and
/// data_local_truth (E_t(x) - E_0(x) on a grid x frames: frostPixelX/Y, frame, displacement)
/// when the motion is local.
meta::MetadataFile movie_truth_star(const SimulatedMovie& movie, const MovieSetup& setup,
                                    const std::string& movie_path, int grid = 9);

} // namespace frost::sim
