#pragma once
/// @file polar.hpp
/// @brief The polar grid of the rotation step (docs/align_significant.md#polar-grid), shared by CPU and
/// CUDA: the same S samples on every ring so all rings go through one batched FFT.
#include <math.h>

#include "frost/alignment/math/warp.hpp"

namespace frost::align {

/// Rings r0..r1 (integer radii), S samples each; Δ = 360°/S.
struct PolarGrid {
  int size = 0;       ///< image size X
  int first_ring = 0; ///< r0 = max(2, ⌊X/20⌋)
  int last_ring = 0;  ///< r1 = ⌊(X − 3)/2⌋
  int samples = 0;    ///< S = 2·⌊π·r1⌋

  FROST_HD int rings() const { return last_ring - first_ring + 1; }
  FROST_HD int spectrum() const { return samples / 2 + 1; }
  FROST_HD float step_deg() const { return 360.0f / static_cast<float>(samples); }
};

/// The grid for an X × X image (Xmipp `arotation_estimator.h`, `cuda_rot_polar_estimator.cpp`).
FROST_HD inline PolarGrid make_polar_grid(int x) {
  PolarGrid g;
  g.size = x;
  g.first_ring = x / 20 > 2 ? x / 20 : 2;
  g.last_ring = (x - 3) / 2;
  g.samples = 2 * static_cast<int>(floor(3.14159265358979323846 * g.last_ring));
  return g;
}

/// Sample k of ring r (radius r): (r/r1) · I(⌊X/2⌋ + r sin φ, ⌊X/2⌋ + r cos φ), φ = 2πk/S
/// measured from +y towards +x, the image read through at(i, j). `sin_phi`, `cos_phi` are those
/// of φ_k. r1 leaves one pixel of margin (2(r1 + 1) < X), so no bounds check is needed.
/// Position (u, v) of sample (radius, φ), as polar_sample_at() uses it.
FROST_HD inline void polar_point(const PolarGrid& g, int radius, float sin_phi, float cos_phi, float& u, float& v) {
  const float c = static_cast<float>(g.size / 2);
  const float r = static_cast<float>(radius);
  u = c + r * sin_phi;
  v = c + r * cos_phi;
}
/// The weight r/r1 of ring `radius`.
FROST_HD inline float polar_weight(const PolarGrid& g, int radius) {
  return static_cast<float>(radius) / static_cast<float>(g.last_ring);
}
/// polar_point() and the weight (returned); for readers that fetch the neighbours themselves.
FROST_HD inline float polar_position(const PolarGrid& g, int radius, float sin_phi, float cos_phi, float& u, float& v) {
  polar_point(g, radius, sin_phi, cos_phi, u, v);
  return polar_weight(g, radius);
}

template <class At>
FROST_HD inline float polar_sample_at(const At& at, const PolarGrid& g, int radius, float sin_phi, float cos_phi) {
  float u, v;
  const float w = polar_position(g, radius, sin_phi, cos_phi, u, v);
  return w * bilinear_at(at, u, v);
}

/// polar_sample_at() of a row-major X × X image.
FROST_HD inline float polar_sample(const float* img, const PolarGrid& g, int radius, float sin_phi, float cos_phi) {
  const int nx = g.size;
  return polar_sample_at([img, nx](int i, int j) { return img[static_cast<long long>(j) * nx + i]; }, g, radius,
                         sin_phi, cos_phi);
}

} // namespace frost::align
