#pragma once
/// @file peak.hpp
/// @brief The rotation angle of a ring-correlation peak and the spectrum product of the shift
/// step (docs/align_significant.md#shift-step and #rotation-step), shared by CPU and CUDA. The
/// sub-pixel refinement of both steps is geom's (subpixel_peak.hpp).
#include "frost/core/hd.hpp"
#include "frost/geometry/subpixel_peak.hpp"

namespace frost::align {

/// Rotation θ [deg, in [0, 360)) of the ring-correlation peak at sample k of S with value c0 and
/// circular neighbours cm, cp (step 5 of docs/align_significant.md#rotation-step).
FROST_HD inline float rotation_angle(int k, int samples, float cm, float c0, float cp,
                                    geom::SubpixelMethod sub) {
  const float off = geom::refine_peak_1d(cm, c0, cp, sub);
  float theta = 360.0f * (static_cast<float>(k) + off) / static_cast<float>(samples);
  if (theta < 0) theta += 360.0f;
  if (theta >= 360.0f) theta -= 360.0f;
  return theta;
}

/// Q = F_R · conj(F_D) · (−1)^(kx+ky): the sign factor moves zero displacement to the centre
/// of the inverse transform (needs even sizes; ky's parity equals its row index's).
FROST_HD inline void shift_product(float rr, float ri, float dr, float di, int kx, int row, float& qr, float& qi) {
  // (rr + i ri)(dr − i di)
  float re = rr * dr + ri * di;
  float im = ri * dr - rr * di;
  if ((kx + row) & 1) {
    re = -re;
    im = -im;
  }
  qr = re;
  qi = im;
}

} // namespace frost::align
