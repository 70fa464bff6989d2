#pragma once
/// @file peak.hpp
/// @brief Sub-pixel peak refinement and the spectrum product of the shift step
/// (docs/align_significant.md#shift-step and #rotation-step), shared by CPU and CUDA.
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

/// Sub-pixel offset (ox, oy) of a 2-D correlation peak of value `best` (step 5 of
/// docs/align_significant.md#shift-step); at(a, b) is the value at offset (a, b) from the peak (a,
/// b in {−1, 0, 1}, periodic).
template <class At>
FROST_HD inline void refine_shift_peak(const At& at, float best, Subpixel sub, float& ox, float& oy) {
  ox = 0;
  oy = 0;
  if (sub == Subpixel::Parabolic) {
    ox = parabolic_offset(at(-1, 0), best, at(1, 0));
    oy = parabolic_offset(at(0, -1), best, at(0, 1));
  } else if (sub == Subpixel::Centroid3 && best > 0) {
    float w = 0, sx = 0, sy = 0;
    for (int b = -1; b <= 1; ++b)
      for (int a = -1; a <= 1; ++a) {
        const float v = at(a, b) / best;
        w += v;
        sx += v * a;
        sy += v * b;
      }
    if (w > 0) {
      ox = sx / w;
      oy = sy / w;
    }
  }
}

/// Rotation θ [deg, in [0, 360)) of the ring-correlation peak at sample k of S with value c0 and
/// circular neighbours cm, cp (step 5 of docs/align_significant.md#rotation-step).
FROST_HD inline float rotation_angle(int k, int samples, float cm, float c0, float cp, Subpixel sub) {
  float off = 0;
  if (sub == Subpixel::Parabolic) {
    off = parabolic_offset(cm, c0, cp);
  } else if (sub == Subpixel::Centroid3 && c0 > 0) {
    const float w = (cm + c0 + cp) / c0;
    if (w > 0) off = (cp - cm) / c0 / w;
  }
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
