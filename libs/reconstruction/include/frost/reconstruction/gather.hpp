#pragma once
/// @file gather.hpp
/// @brief The gather insertion of one column of a traverse space (precise mode:
/// docs/reconstruct_fourier.md#gather-and-the-traverse-space; fast mode:
/// docs/reconstruct_fourier.md#fast-mode). Written once as FROST_HD templates: the CPU inserter
/// calls it from OpenMP loops, the CUDA column kernel from one thread per column and the CUDA brick
/// kernel for the part of a column inside a brick (gather_column_range); they differ only in the
/// accumulator (plain adds on the CPU, atomics or shared-memory sums on the GPU).
#include <math.h>

#include "frost/reconstruction/precision.hpp"
#include "frost/core/hd.hpp"
#include "frost/reconstruction/blob.hpp"
#include "frost/reconstruction/fast_bessel.hpp"
#include "frost/reconstruction/traverse_space.hpp"

/// `#pragma unroll n` in the device pass of nvcc only (host compilers do not know it).
#if defined(__CUDA_ARCH__)
#define FROST_GATHER_PRAGMA(x) _Pragma(#x)
#define FROST_GATHER_UNROLL(n) FROST_GATHER_PRAGMA(unroll n)
#else
#define FROST_GATHER_UNROLL(n)
#endif

namespace frost::recon {
inline namespace FROST_RECON_PRECISION {

/// A complex Real as the kernels see it (layout of std::complex<Real>; float2 and fftwf_complex
/// in the float build).
struct alignas(2 * sizeof(Real)) Cf {
  Real re, im;
};

/// The samples of one batch as the insertion reads them: `count` half-planes of fy rows x fx
/// columns (row = ky + M/2, column = kx), each value already multiplied by its CTF factor, and
/// optionally a per-pixel weight factor gw (the CTF modulator, or CTF^2 in Wiener mode).
/// A tap of kernel weight K adds K * value to G and K * gw to W: the value already carries the
/// numerator's CTF factor (m c in invert mode, CTF in Wiener mode,
/// docs/reconstruct_fourier.md#ctf-modes), so gw enters W only.
struct SampleView {
  const Cf* spectra = nullptr; ///< count * fy * fx
  const Real* gw = nullptr;    ///< count * fy * fx, or nullptr = 1 everywhere
  int fx = 0, fy = 0;
  int M = 0;                   ///< grid is (M+1)^3, frequency k = voxel - M/2
};

/// Blob weight from a lookup table (entries carry iw0); `d2` <= a^2.
struct TableWeight {
  BlobTableView table;
  FROST_HD Real operator()(Real d2) const { return table.nearest(d2); }
};

/// Blob weight computed on the fly: scale * u^m * I_m(alpha u), u = sqrt(1 - d2/a^2),
/// scale = iw0 / I_m(alpha). Float in both builds: the on-the-fly Bessel approximations are
/// single precision (docs/reconstruct_fourier.md#the-blob-kernel).
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
FROST_HD inline Real column_hit(int dir, Real a, Real b, const geom::Vec3<Real>& o, const geom::Vec3<Real>& n) {
  if (dir == kPlaneXY) return o.z - (n.x * (a - o.x) + n.y * (b - o.y)) / n.z;
  if (dir == kPlaneXZ) return o.y - (n.x * (a - o.x) + n.z * (b - o.z)) / n.y;
  return o.x - (n.y * (a - o.y) + n.z * (b - o.z)) / n.x;
}

} // namespace detail

/// @brief Where voxel (x, y, z) lies relative to the slice of `ts`: (u, v) its position in the
/// sample (column, row; v already shifted by fy/2) and w its signed distance to the slice plane.
/// Returns false when the voxel is beyond the frequency cut-off, outside the slab |w| <= radius or
/// behind the half-plane (u < -radius): the voxel then gets nothing from this slice. The first
/// half of gather_voxel.
FROST_HD inline bool voxel_on_slice(const TraverseSpace& ts, int x, int y, int z, const SampleView& s, Real radius,
                                    Real& u, Real& v, Real& w) {
  const Real half = Real(0.5) * s.M;
  const Real kx = x - half, ky = y - half, kz = z - half;
  if (kx * kx + ky * ky + kz * kz > ts.max_distance_sqr) return false;
  const geom::Mat3<Real>& T = ts.transform_inv;
  u = T.m[0][0] * kx + T.m[0][1] * ky + T.m[0][2] * kz;
  v = T.m[1][0] * kx + T.m[1][1] * ky + T.m[1][2] * kz + Real(0.5) * s.fy;
  w = T.m[2][0] * kx + T.m[2][1] * ky + T.m[2][2] * kz;
  const Real r2 = radius * radius;
  return !(u < -radius || w * w > r2);
}

/// Rows (and columns) of sample pixels a gather may visit for a kernel radius: floor(2 radius) + 1.
/// The GPU kernels unroll the tap loops for this many when it is small (gather_taps<Window>).
FROST_HD inline int tap_window(Real radius) { return static_cast<int>(real_floor(Real(2) * radius)) + 1; }

/// @brief The kernel-weighted sum of the sample pixels of `ts`'s image within `radius` of the
/// point (u, v, w) of voxel_on_slice (3-D distance to their position on the slice), rows then
/// columns in increasing order. Returns false (and leaves the sums alone) when no pixel is
/// within reach; the sums are not yet multiplied by the image weight. The second half of
/// gather_voxel.
///
/// Window = 0 loops over the rows and columns as they come, one iteration at a time; Window > 0
/// unrolls the loops Window times, the iterations beyond the last row or column skipped (and
/// falls back to Window = 0 when tap_window(radius) > Window), with (u - j)^2 of the window's
/// columns computed once. Both visit the same pixels in the same order with the same
/// operations: the results are identical. On a GPU, unrolling a loop whose trip count varies between the
/// lanes of a warp (3 or 4 for a = 1.9) into a remainder loop plus an unrolled loop makes a warp
/// run both, so the loops are either not unrolled or unrolled to the fixed window.
template <int Window = 0, class Weight>
FROST_HD inline bool gather_taps(const TraverseSpace& ts, Real u, Real v, Real w, const SampleView& s, Real radius,
                                 const Weight& weight, Real& gr, Real& gi, Real& ws) {
  const Real r2 = radius * radius;
  int i0 = static_cast<int>(real_ceil(v - radius)), i1 = static_cast<int>(real_floor(v + radius));
  int j0 = static_cast<int>(real_ceil(u - radius)), j1 = static_cast<int>(real_floor(u + radius));
  i0 = i0 < 0 ? 0 : i0;
  j0 = j0 < 0 ? 0 : j0;
  i1 = i1 > s.fy - 1 ? s.fy - 1 : i1;
  j1 = j1 > s.fx - 1 ? s.fx - 1 : j1;
  if constexpr (Window > 0) {
    if (i1 - i0 >= Window || j1 - j0 >= Window)
      return gather_taps<0>(ts, u, v, w, s, radius, weight, gr, gi, ws); // window too small for this radius
  }
  constexpr int kTrips = Window > 0 ? Window : 0x7fffffff;
  const int slot = ts.projection_index * s.fx * s.fy;
  const Cf* F = s.spectra + slot;
  const Real* gw = s.gw ? s.gw + slot : nullptr;
  // Window > 0: (u - j)^2 of the window's columns, the same for every row, computed once.
  Real du2[Window > 0 ? Window : 1];
  if constexpr (Window > 0) {
    FROST_GATHER_UNROLL((Window > 0 ? Window : 1))
    for (int qj = 0; qj < Window; ++qj) {
      const Real du = u - (j0 + qj);
      du2[qj] = du * du;
    }
  }
  Real sr = 0, si = 0, sw = 0;
  FROST_GATHER_UNROLL((Window > 0 ? Window : 1))
  for (int qi = 0; qi < kTrips; ++qi) {
    const int i = i0 + qi;
    if (i > i1) break;
    const Real dv = v - i;
    const Real dvw = dv * dv + w * w;
    if (dvw > r2) continue;
    FROST_GATHER_UNROLL((Window > 0 ? Window : 1))
    for (int qj = 0; qj < kTrips; ++qj) {
      const int j = j0 + qj;
      if (j > j1) break;
      Real du_sq;
      if constexpr (Window > 0) {
        du_sq = du2[qj];
      } else {
        const Real du = u - j;
        du_sq = du * du;
      }
      const Real d2 = du_sq + dvw;
      if (d2 > r2) continue;
      const int p = i * s.fx + j;
      const Real k = weight(d2);
      const Cf f = F[p];
      sr += k * f.re;
      si += k * f.im;
      sw += gw ? k * gw[p] : k;
    }
  }
  gr = sr;
  gi = si;
  ws = sw;
  return sw != Real(0);
}

/// @brief The precise gather of one voxel (x, y, z) from the slice of `ts`: the kernel-weighted
/// sum of the sample pixels within `radius` of the voxel (3-D distance to their position on the
/// slice). Returns false (and leaves the sums alone) when the voxel is beyond the frequency
/// cut-off, outside the slab or behind the half-plane; the sums are not yet multiplied by the
/// image weight. Both the column gather below and any other traversal of the grid use this
/// (or its two halves, voxel_on_slice and gather_taps), so every backend computes each voxel's
/// contribution with the same arithmetic.
template <int Window = 0, class Weight>
FROST_HD inline bool gather_voxel(const TraverseSpace& ts, int x, int y, int z, const SampleView& s, Real radius,
                                  const Weight& weight, Real& gr, Real& gi, Real& ws) {
  Real u, v, w;
  if (!voxel_on_slice(ts, x, y, z, s, radius, u, v, w)) return false;
  return gather_taps<Window>(ts, u, v, w, s, radius, weight, gr, gi, ws);
}

/// @brief The voxels column (a, b) of `ts` visits in the precise gather: c0..c1 along the
/// column (the slab between the two bounding planes, rounded outwards), clamped to 0..M and to
/// c_min..c_max. Empty when c0 > c1.
FROST_HD inline void column_span(const TraverseSpace& ts, int a, int b, int M, int c_min, int c_max, int& c0,
                                 int& c1) {
  const int dir = ts.dir;
  const Real z1 = detail::column_hit(dir, Real(a), Real(b), ts.bottom_origin, ts.unit_normal);
  const Real z2 = detail::column_hit(dir, Real(a), Real(b), ts.top_origin, ts.unit_normal);
  const Real lo = z1 < z2 ? z1 : z2, hi = z1 < z2 ? z2 : z1;
  c0 = static_cast<int>(real_floor(lo));
  c1 = static_cast<int>(real_ceil(hi));
  c0 = c0 < 0 ? 0 : c0;
  c1 = c1 > M ? M : c1;
  c0 = c0 < c_min ? c_min : c0;
  c1 = c1 > c_max ? c_max : c1;
}

/// @brief Precise gather of the voxels c_min..c_max (clamped to 0..M) of column (a, b) of `ts`:
/// every voxel of that part of the column inside the slab of half-width `radius` gathers with
/// gather_voxel and calls acc(x, y, z, g_re, g_im, w) once (w != 0 only), already scaled by the
/// image weight. `Weight` maps a squared distance (<= radius^2) to the blob value. The brick
/// kernel walks the part of a column inside its brick; the parts of a column together visit
/// exactly the voxels gather_column visits.
template <int Window = 0, class Weight, class Accumulate>
FROST_HD inline void gather_column_range(const TraverseSpace& ts, int a, int b, const SampleView& s, Real radius,
                                         const Weight& weight, Accumulate&& acc, int c_min, int c_max) {
  int c0, c1;
  column_span(ts, a, b, s.M, c_min, c_max, c0, c1);
  for (int c = c0; c <= c1; ++c) {
    int x, y, z;
    detail::column_voxel(ts.dir, a, b, c, x, y, z);
    Real gr, gi, ws;
    if (gather_voxel<Window>(ts, x, y, z, s, radius, weight, gr, gi, ws))
      acc(x, y, z, ts.weight * gr, ts.weight * gi, ts.weight * ws);
  }
}

/// @brief Precise gather of column (a, b) of `ts`: every voxel of the column inside the slab of
/// half-width `radius` (gather_column_range over the whole column).
template <int Window = 0, class Weight, class Accumulate>
FROST_HD inline void gather_column(const TraverseSpace& ts, int a, int b, const SampleView& s,
                                   Real radius, const Weight& weight, Accumulate&& acc) {
  gather_column_range<Window>(ts, a, b, s, radius, weight, acc, 0, s.M);
}

/// @brief The fast-mode contribution (docs/reconstruct_fourier.md#fast-mode) to voxel (x, y, z) of
/// the b = 0 traverse space `ts`: the nearest sample pixel's value and weight factor (not yet
/// multiplied by the image weight). Returns false (sums untouched) beyond the frequency cut-off,
/// when the nearest pixel is outside the sample, or when its weight factor is 0. This is the whole
/// contribution only for the voxel a column selects (the one nearest to the slice along the column,
/// gather_column_nearest); other voxels of the column get nothing.
FROST_HD inline bool gather_voxel_nearest(const TraverseSpace& ts, int x, int y, int z, const SampleView& s,
                                          Real& gr, Real& gi, Real& ws) {
  const Real half = Real(0.5) * s.M;
  const Real kx = x - half, ky = y - half, kz = z - half;
  if (kx * kx + ky * ky + kz * kz > ts.max_distance_sqr) return false;
  const geom::Mat3<Real>& T = ts.transform_inv;
  const Real u = T.m[0][0] * kx + T.m[0][1] * ky + T.m[0][2] * kz;
  const Real v = T.m[1][0] * kx + T.m[1][1] * ky + T.m[1][2] * kz + Real(0.5) * s.fy;
  const int j = static_cast<int>(real_floor(u + Real(0.5))), i = static_cast<int>(real_floor(v + Real(0.5)));
  if (j < 0 || j >= s.fx || i < 0 || i >= s.fy) return false;
  const int slot = ts.projection_index * s.fx * s.fy;
  const int p = i * s.fx + j;
  const Real m = s.gw ? s.gw[slot + p] : Real(1);
  if (m == Real(0)) return false;
  const Cf f = s.spectra[slot + p];
  gr = f.re;
  gi = f.im;
  ws = m;
  return true;
}

/// @brief Fast-mode gather of column (a, b) (b = 0 traverse space), restricted to the voxels
/// c_min..c_max of the column: the voxel of the column nearest to the slice (if it lies in that
/// range) takes the nearest sample pixel (gather_voxel_nearest); acc as in gather_column.
template <class Accumulate>
FROST_HD inline void gather_column_nearest_range(const TraverseSpace& ts, int a, int b, const SampleView& s,
                                                 Accumulate&& acc, int c_min, int c_max) {
  const Real h = detail::column_hit(ts.dir, Real(a), Real(b), ts.bottom_origin, ts.unit_normal);
  const int c = static_cast<int>(real_floor(h + Real(0.5)));
  if (c < 0 || c > s.M || c < c_min || c > c_max) return;
  int x, y, z;
  detail::column_voxel(ts.dir, a, b, c, x, y, z);
  Real gr, gi, ws;
  if (gather_voxel_nearest(ts, x, y, z, s, gr, gi, ws)) acc(x, y, z, ts.weight * gr, ts.weight * gi, ts.weight * ws);
}

/// @brief Fast-mode gather of column (a, b) (b = 0 traverse space): the voxel of the column
/// nearest to the slice takes the nearest sample pixel; acc as in gather_column.
template <class Accumulate>
FROST_HD inline void gather_column_nearest(const TraverseSpace& ts, int a, int b, const SampleView& s,
                                           Accumulate&& acc) {
  gather_column_nearest_range(ts, a, b, s, acc, 0, s.M);
}

} // namespace FROST_RECON_PRECISION
} // namespace frost::recon
