#pragma once
/// @file particle.hpp
/// @brief One particle image as the reconstruction sees it: where the image is, its pose, shift,
/// weight, half set and CTF (docs/reconstruct_fourier.md#particle-metadata, after the metadata is read).
#include <cstddef>
#include <string>

#include "frost/ctf/ctf.hpp"
#include "frost/geometry/euler.hpp"

namespace frost::recon {

struct ParticleRecord {
  std::string image;           ///< "N@stack.mrcs" or a file name
  std::size_t row = 0;         ///< 0-based row in the metadata table (for messages)
  geom::EulerAngles pose;      ///< ZYZ [deg]
  double shift_x = 0, shift_y = 0; ///< shift to apply to the image [px]
  double weight = 1;           ///< per-image weight (used with --weight)
  int subset = 0;              ///< half set 1 or 2 (0 = unknown)
  bool has_ctf = false;
  ctf::CtfParams ctf;          ///< valid when has_ctf
};

} // namespace frost::recon
