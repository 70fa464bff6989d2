#pragma once
// A reconstructed map against the phantom it was projected from.
#include <string>

namespace frost::bench {

struct MapAccuracy {
  double ncc = 0;         ///< normalised cross-correlation inside the sphere of radius 0.45 N
  double fsc_05 = 0;      ///< FSC = 0.5 resolution [A]
  double fsc_0143 = 0;    ///< FSC = 0.143 resolution [A]
  double mean_fsc = 0;    ///< mean FSC over shells 1 .. N/2
  /// Mean FSC with both maps under one soft sphere (1 to 0.45 N, a raised cosine to 0.5 N):
  /// RELION zeroes its map outside N/2 by default, which removes the corners' noise from the
  /// unmasked FSC; under the same mask both maps are judged on the same voxels.
  double mean_fsc_masked = 0;
};

/// Reads both maps (same cubic box) and compares them.
MapAccuracy map_accuracy(const std::string& map, const std::string& truth, double pixel_size);

} // namespace frost::bench
