#pragma once
/// @file phantom.hpp
/// @brief Phantom volumes for tests and demos: sums of 3-D Gaussian blobs with known parameters.
#include <cstdint>
#include <vector>

#include "frost/core/image.hpp"

namespace frost::sim {

/// One Gaussian blob: centre in voxels relative to the box centre (n/2), width and height.
struct Blob {
  double x = 0, y = 0, z = 0; ///< offset from the centre voxel [px]
  double sigma = 2;           ///< standard deviation [px]
  double amplitude = 1;       ///< peak value
};

/// `count` blobs inside a sphere of radius 0.35*box around the centre, sigma in
/// [0.02, 0.06]*box, amplitude in [0.5, 1]; deterministic for a seed.
std::vector<Blob> random_blobs(int box, int count, std::uint32_t seed);

/// Render blobs into a box^3 volume (centre voxel box/2 in each axis, RELION convention).
Image<float> render_blobs(int box, const std::vector<Blob>& blobs);

} // namespace frost::sim
