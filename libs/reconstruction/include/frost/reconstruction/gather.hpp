#pragma once
/// @file gather.hpp
/// @brief The gather insertion of one column of a traverse space (fourier-reconstruction.md §5.5
/// precise mode, §5.8 fast mode). Written once as FROST_HD templates: the CPU inserter calls it
/// from OpenMP loops and the CUDA kernel from one thread per column; they differ only in the
/// accumulator (plain adds on the CPU, atomics on the GPU).
#include <math.h>

#include "frost/core/hd.hpp"
#include "frost/reconstruction/blob.hpp"
#include "frost/reconstruction/fast_bessel.hpp"
#include "frost/reconstruction/traverse_space.hpp"

namespace frost::recon {

/// A complex float as the kernels see it (layout of std::complex<float>, float2, fftwf_complex).
struct Cf {
  float re, im;
};

/// The samples of one batch as the insertion reads them: `count` half-planes of fy rows x fx
/// columns (row = ky + M/2, column = kx), each value already multiplied by its CTF factor, and
/// optionally a per-pixel weight factor gw (the CTF modulator, or CTF^2 in Wiener mode).
/// A tap of kernel weight K adds K * value to G and K * gw to W: the value already carries the
/// numerator's CTF factor (m c in invert mode, CTF in Wiener mode, §5.7), so gw enters W only.
struct SampleView {
  const Cf* spectra = nullptr; ///< count * fy * fx
  const float* gw = nullptr;   ///< count * fy * fx, or nullptr = 1 everywhere
  int fx = 0, fy = 0;
  int M = 0;                   ///< grid is (M+1)^3, frequency k = voxel - M/2
};

/// Blob weight from a lookup table (entries carry iw0); `d2` <= a^2.
struct TableWeight {
  BlobTableView table;
  FROST_HD float operator()(float d2) const { return table.nearest(d2); }
};

/// Blob weight computed on the fly: scale * u^m * I_m(alpha u), u = sqrt(1 - d2/a^2),
/// scale = iw0 / I_m(alpha).
struct DynamicWeight {
  float inv_radius2 = 0, alpha = 0, scale = 0;
  int order = 0;
  FROST_HD float operator()(float d2) const {
    float t = 1.0f - d2 * inv_radius2;
    t = t < 0.0f ? 0.0f : t;
    const float u = sqrtf(t);
    float um = 1.0f;
    for (int i = 0; i < order; ++i) um *= u;
    return scale * um * bessel_im_fast(order, alpha * u);
  }
};

namespace detail {

/// Voxel (x, y, z) of column (a, b) at position c along the column, for a plane direction.
FROST_HD inline void column_voxel(int dir, int a, int b, int c, int& x, int& y, int& z) {
  if (dir == kPlaneXY) { x = a; y = b; z = c; }
  else if (dir == kPlaneXZ) { x = a; y = c; z = b; }
  else { x = c; y = a; z = b; }
}

/// Where the line of column (a, b) meets the plane through `o` with normal `n`, as the
/// coordinate along the column.
FROST_HD inline float column_hit(int dir, float a, float b, const geom::Vec3f& o, const geom::Vec3f& n) {
  if (dir == kPlaneXY) return o.z - (n.x * (a - o.x) + n.y * (b - o.y)) / n.z;
  if (dir == kPlaneXZ) return o.y - (n.x * (a - o.x) + n.z * (b - o.z)) / n.y;
  return o.x - (n.y * (a - o.y) + n.z * (b - o.z)) / n.x;
}

} // namespace detail

/// @brief The precise gather of one voxel (x, y, z) from the slice of `ts`: the kernel-weighted
/// sum of the sample pixels within `radius` of the voxel (3-D distance to their position on the
/// slice). Returns false (and leaves the sums alone) when the voxel is beyond the frequency
/// cut-off, outside the slab or behind the half-plane; the sums are not yet multiplied by the
/// image weight. Both the column gather below and any other traversal of the grid use this, so
/// every backend computes each voxel's contribution with the same arithmetic.
template <class Weight>
FROST_HD inline bool gather_voxel(const TraverseSpace& ts, int x, int y, int z, const SampleView& s, float radius,
                                  const Weight& weight, float& gr, float& gi, float& ws) {
  const float half = 0.5f * s.M;
  const float kx = x - half, ky = y - half, kz = z - half;
  if (kx * kx + ky * ky + kz * kz > ts.max_distance_sqr) return false;
  const geom::Mat3f& T = ts.transform_inv;
  const float u = T.m[0][0] * kx + T.m[0][1] * ky + T.m[0][2] * kz;
  const float v = T.m[1][0] * kx + T.m[1][1] * ky + T.m[1][2] * kz + 0.5f * s.fy;
  const float w = T.m[2][0] * kx + T.m[2][1] * ky + T.m[2][2] * kz;
  const float r2 = radius * radius;
  if (u < -radius || w * w > r2) return false;
  int i0 = static_cast<int>(ceilf(v - radius)), i1 = static_cast<int>(floorf(v + radius));
  int j0 = static_cast<int>(ceilf(u - radius)), j1 = static_cast<int>(floorf(u + radius));
  i0 = i0 < 0 ? 0 : i0;
  j0 = j0 < 0 ? 0 : j0;
  i1 = i1 > s.fy - 1 ? s.fy - 1 : i1;
  j1 = j1 > s.fx - 1 ? s.fx - 1 : j1;
  const int slot = ts.projection_index * s.fx * s.fy;
  const Cf* F = s.spectra + slot;
  const float* gw = s.gw ? s.gw + slot : nullptr;
  float sr = 0, si = 0, sw = 0;
  for (int i = i0; i <= i1; ++i) {
    const float dv = v - i;
    const float dvw = dv * dv + w * w;
    if (dvw > r2) continue;
    for (int j = j0; j <= j1; ++j) {
      const float du = u - j;
      const float d2 = du * du + dvw;
      if (d2 > r2) continue;
      const int p = i * s.fx + j;
      const float k = weight(d2);
      sr += k * F[p].re;
      si += k * F[p].im;
      sw += gw ? k * gw[p] : k;
    }
  }
  gr = sr;
  gi = si;
  ws = sw;
  return sw != 0.0f;
}

/// @brief Precise gather of column (a, b) of `ts`: every voxel of the column inside the slab of
/// half-width `radius` gathers with gather_voxel and calls acc(x, y, z, g_re, g_im, w) once
/// (w != 0 only), already scaled by the image weight. `Weight` maps a squared distance
/// (<= radius^2) to the blob value.
template <class Weight, class Accumulate>
FROST_HD inline void gather_column(const TraverseSpace& ts, int a, int b, const SampleView& s,
                                   float radius, const Weight& weight, Accumulate&& acc) {
  const int dir = ts.dir;
  const float z1 = detail::column_hit(dir, float(a), float(b), ts.bottom_origin, ts.unit_normal);
  const float z2 = detail::column_hit(dir, float(a), float(b), ts.top_origin, ts.unit_normal);
  const float lo = z1 < z2 ? z1 : z2, hi = z1 < z2 ? z2 : z1;
  int c0 = static_cast<int>(floorf(lo)), c1 = static_cast<int>(ceilf(hi));
  c0 = c0 < 0 ? 0 : c0;
  c1 = c1 > s.M ? s.M : c1;
  for (int c = c0; c <= c1; ++c) {
    int x, y, z;
    detail::column_voxel(dir, a, b, c, x, y, z);
    float gr, gi, ws;
    if (gather_voxel(ts, x, y, z, s, radius, weight, gr, gi, ws))
      acc(x, y, z, ts.weight * gr, ts.weight * gi, ts.weight * ws);
  }
}

/// @brief Fast-mode gather of column (a, b) (b = 0 traverse space): the voxel of the column
/// nearest to the slice takes the nearest sample pixel; acc as in gather_column.
template <class Accumulate>
FROST_HD inline void gather_column_nearest(const TraverseSpace& ts, int a, int b, const SampleView& s,
                                           Accumulate&& acc) {
  const float h = detail::column_hit(ts.dir, float(a), float(b), ts.bottom_origin, ts.unit_normal);
  const int c = static_cast<int>(floorf(h + 0.5f));
  if (c < 0 || c > s.M) return;
  int x, y, z;
  detail::column_voxel(ts.dir, a, b, c, x, y, z);
  const float half = 0.5f * s.M;
  const float kx = x - half, ky = y - half, kz = z - half;
  if (kx * kx + ky * ky + kz * kz > ts.max_distance_sqr) return;
  const geom::Mat3f& T = ts.transform_inv;
  const float u = T.m[0][0] * kx + T.m[0][1] * ky + T.m[0][2] * kz;
  const float v = T.m[1][0] * kx + T.m[1][1] * ky + T.m[1][2] * kz + 0.5f * s.fy;
  const int j = static_cast<int>(floorf(u + 0.5f)), i = static_cast<int>(floorf(v + 0.5f));
  if (j < 0 || j >= s.fx || i < 0 || i >= s.fy) return;
  const int slot = ts.projection_index * s.fx * s.fy;
  const int p = i * s.fx + j;
  const float m = s.gw ? s.gw[slot + p] : 1.0f;
  if (m == 0.0f) return;
  const Cf f = s.spectra[slot + p];
  acc(x, y, z, ts.weight * f.re, ts.weight * f.im, ts.weight * m);
}

} // namespace frost::recon
