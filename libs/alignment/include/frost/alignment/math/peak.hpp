#pragma once
/// @file peak.hpp
/// @brief Sub-pixel peak refinement and the spectrum product of the shift step (§5.3, §5.4),
/// shared by CPU and CUDA.
#include "frost/core/hd.hpp"

namespace frost::align {

/// How a correlation peak is refined (`--subpixel`).
enum class Subpixel {
  None,      ///< integer position (Xmipp's aligner)
  Parabolic, ///< 3-point parabola per axis (default)
  Centroid3  ///< 3x3 weighted centroid, values divided by the peak (Xmipp `refineLocation`)
};

/// Vertex offset of the parabola through (−1, cm), (0, c0), (+1, cp): δ = (cm − cp) / (2(cm −
/// 2c0 + cp)), used only when the denominator is negative (a maximum), clamped to [−0.5, 0.5].
FROST_HD inline float parabolic_offset(float cm, float c0, float cp) {
  const float den = cm - 2.0f * c0 + cp;
  if (!(den < 0.0f)) return 0.0f;
  float d = (cm - cp) / (2.0f * den);
  if (d > 0.5f) d = 0.5f;
  if (d < -0.5f) d = -0.5f;
  return d;
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
