#pragma once
/// @file scatter.hpp
/// @brief The scatter insertion with the separable kernel (docs/reconstruct_fourier.md#the-separable-kernel):
/// one sample pixel of a traverse space adds into the 4 x 4 x 4 voxels around its position in the
/// cube, weighted by k(dx) k(dy) k(dz), k one 1-D Kaiser-Bessel factor looked up by squared
/// distance. Written once as FROST_HD code: the CUDA scatter kernel calls scatter_sample with
/// atomic adds, the CPU brick walk (cpu_scatter.cpp) computes the same weights with
/// sample_position and axis_weights and adds them brick by brick.
#include <math.h>

#include "frost/core/hd.hpp"
#include "frost/reconstruction/gather.hpp"
#include "frost/reconstruction/precision.hpp"
#include "frost/reconstruction/traverse_space.hpp"

namespace frost::recon {
inline namespace FROST_RECON_PRECISION {

/// Most voxels per axis a sample reaches: floor(p) - 1 .. floor(p) + 2 covers every |d| < 2, the
/// largest separable radius (kSeparableMaxRadius).
constexpr int kScatterWindow = 4;

/// Voxels per axis for kernel radius `radius`: 3 up to a radius of 1.5 (round(p) - 1 .. round(p) + 1
/// covers every |d| <= 1.5), else 4.
FROST_HD inline int scatter_window(Real radius) { return radius <= Real(1.5) ? 3 : 4; }

/// Position (voxel coordinates of the cube, centre M/2) of sample pixel (column j, row i) of
/// `ts`: A_SL (kx, ky, 0) + M/2 with kx = j, ky = i - fy/2; A_SL = transform_inv^T.
FROST_HD inline void sample_position(const TraverseSpace& ts, int j, int i, const SampleView& s, Real& px, Real& py,
                                     Real& pz) {
  const geom::Mat3<Real>& T = ts.transform_inv;
  const Real kx = static_cast<Real>(j), ky = static_cast<Real>(i) - Real(0.5) * s.fy;
  const Real half = Real(0.5) * s.M;
  px = T.m[0][0] * kx + T.m[1][0] * ky + half;
  py = T.m[0][1] * kx + T.m[1][1] * ky + half;
  pz = T.m[0][2] * kx + T.m[1][2] * ky + half;
}

/// The kernel factors of a window of `window` voxels (scatter_window) along one axis: k[q] =
/// weight((o + q - p)^2) for q < window and 0 beyond, for the window origin o (floor(p) - 1, or
/// floor(p + 1/2) - 1 for 3 voxels), which it returns. `Weight` maps a squared distance to the 1-D
/// factor (TableWeight on a 1-D-normalised BlobTable, or DynamicWeight), 0 beyond the radius.
template <class Weight>
FROST_HD inline int axis_weights(Real p, int window, const Weight& weight, Real k[kScatterWindow]) {
  const int o = static_cast<int>(real_floor(window == 3 ? p + Real(0.5) : p)) - 1;
  for (int q = 0; q < kScatterWindow; ++q) {
    const Real d = static_cast<Real>(o + q) - p;
    k[q] = q < window ? weight(d * d) : Real(0);
  }
  return o;
}

/// @brief Scatters sample pixel (j, i) of `ts` with a window of `window` voxels per axis
/// (scatter_window of the kernel radius): acc(x, y, z, g_re, g_im, w) for every voxel of
/// its window inside the cube (0..M), within the sphere |v - M/2|^2 <= max_distance_sqr and with
/// a non-zero weight, already scaled by the image weight: the value times K, and K times the
/// pixel's weight factor (gw, or 1).
template <class Weight, class Accumulate>
FROST_HD inline void scatter_sample(const TraverseSpace& ts, int j, int i, const SampleView& s, int window,
                                    const Weight& weight, Accumulate&& acc) {
  Real px, py, pz;
  sample_position(ts, j, i, s, px, py, pz);
  Real kx[kScatterWindow], ky[kScatterWindow], kz[kScatterWindow];
  const int ox = axis_weights(px, window, weight, kx), oy = axis_weights(py, window, weight, ky),
            oz = axis_weights(pz, window, weight, kz);
  const int p = (ts.projection_index * s.fy + i) * s.fx + j;
  const Cf f = s.spectra[p];
  const Real g = s.gw ? s.gw[p] : Real(1);
  const Real half = Real(0.5) * s.M;
  for (int c = 0; c < kScatterWindow; ++c) {
    const int z = oz + c;
    if (z < 0 || z > s.M || kz[c] == Real(0)) continue;
    const Real dz = z - half;
    for (int b = 0; b < kScatterWindow; ++b) {
      const int y = oy + b;
      if (y < 0 || y > s.M || ky[b] == Real(0)) continue;
      const Real dy = y - half;
      const Real kyz = ts.weight * kz[c] * ky[b];
      for (int a = 0; a < kScatterWindow; ++a) {
        const int x = ox + a;
        if (x < 0 || x > s.M || kx[a] == Real(0)) continue;
        const Real dx = x - half;
        if (dx * dx + dy * dy + dz * dz > ts.max_distance_sqr) continue;
        const Real k = kyz * kx[a];
        acc(x, y, z, k * f.re, k * f.im, k * g);
      }
    }
  }
}

} // namespace FROST_RECON_PRECISION
} // namespace frost::recon
