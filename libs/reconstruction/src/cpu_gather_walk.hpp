#pragma once
// The box walk of the CPU gather (docs/reconstruct_fourier.md#the-cpu-gather-kernel), a template
// over the tap kernel so that cpu_gather_avx2.cpp can compile its own copy for AVX2 (it includes
// this file after switching the target on; the instantiation is local to that file).
#include <algorithm>
#include <cmath>

#include "frost/reconstruction/cpu_gather.hpp"

namespace frost::recon {
inline namespace FROST_RECON_PRECISION {
namespace cpu_walk {
// Internal linkage: the AVX2 file's copy must never stand in for this one at link time.
namespace {

/// Margins that keep every voxel voxel_on_slice could accept inside the solved column range:
/// they are far above the float rounding of u, w and |k|^2 (about 1e-5 here).
constexpr double kMarginLength = 1e-3;
constexpr double kMarginSquare = 1e-2;

/// Per space: the axes of its columns and the rows of T that solved_range needs.
struct ColumnFrame {
  int ca, aa, ba;           ///< column axis, and the axes of a and b (x = 0, y = 1, z = 2)
  double half, radius;
  double dmax2;             ///< max_distance_sqr plus the margin
  double wa, wb, inv_wc;    ///< w = wa ka + wb kb + wc kc
  double ua, ub, uc, inv_uc;///< u likewise
  ColumnFrame(const TraverseSpace& ts, int M, double r) {
    const int dir = ts.dir;
    ca = dir == kPlaneXY ? 2 : (dir == kPlaneXZ ? 1 : 0);
    aa = dir == kPlaneYZ ? 1 : 0;
    ba = dir == kPlaneXY ? 1 : 2;
    half = 0.5 * M;
    radius = r;
    dmax2 = static_cast<double>(ts.max_distance_sqr) + kMarginSquare;
    const auto& T = ts.transform_inv.m;
    wa = T[2][aa];
    wb = T[2][ba];
    // The column axis is the normal's largest component: |wc| >= 1/sqrt(3).
    inv_wc = 1.0 / double(T[2][ca]);
    ua = T[0][aa];
    ub = T[0][ba];
    uc = T[0][ca];
    inv_uc = uc != 0.0 ? 1.0 / uc : 0.0;
  }
};

/// The c range [lo, hi] of column (a, b) (grid coordinates along the column axis) whose voxels
/// may pass voxel_on_slice, intersected with [c_min, c_max]: inside the slab |w| <= radius, the
/// half-plane u >= -radius and the sphere |k|^2 <= max_distance_sqr. False when empty.
inline bool solved_range(const ColumnFrame& f, int a, int b, int c_min, int c_max, int& lo, int& hi) {
  const double ka = a - f.half, kb = b - f.half;
  const double rw = f.radius + kMarginLength;
  const double w0 = f.wa * ka + f.wb * kb;
  double s0 = (-rw - w0) * f.inv_wc, s1 = (rw - w0) * f.inv_wc;
  if (s0 > s1) std::swap(s0, s1);
  double clo = std::max(s0, c_min - f.half), chi = std::min(s1, c_max - f.half);
  if (clo > chi) return false;
  const double u0 = f.ua * ka + f.ub * kb;
  const double ru = -f.radius - kMarginLength;
  if (f.uc > 1e-9)
    clo = std::max(clo, (ru - u0) * f.inv_uc);
  else if (f.uc < -1e-9)
    chi = std::min(chi, (ru - u0) * f.inv_uc);
  if (clo > chi) return false;
  const double rho2 = ka * ka + kb * kb;
  if (rho2 > f.dmax2) return false;
  const double h = std::sqrt(f.dmax2 - rho2);
  clo = std::max(clo, -h);
  chi = std::min(chi, h);
  if (clo > chi) return false;
  lo = static_cast<int>(std::ceil(clo + f.half));
  hi = static_cast<int>(std::floor(chi + f.half));
  return lo <= hi;
}

/// The voxels c0..c1 of column (a, b) that voxel_on_slice accepts, one at a time:
/// visit(c, u, v, w). The scalar form; the AVX2 file has a vector one.
struct ScalarColumn {
  template <class Visit>
  void operator()(const TraverseSpace& ts, const SampleView& s, Real radius, int a, int b, int c0, int c1,
                  Visit&& visit) const {
    for (int c = c0; c <= c1; ++c) {
      int x, y, z;
      detail::column_voxel(ts.dir, a, b, c, x, y, z);
      Real u, v, w;
      if (voxel_on_slice(ts, x, y, z, s, radius, u, v, w)) visit(c, u, v, w);
    }
  }
};

/// Walks the voxels of `box` that gather_column visits and voxel_on_slice accepts (b, a, c
/// ascending), adds taps(u, v, w, ...) times the image weight where it returns true.
template <class Column, class Taps>
inline void walk_box(const TraverseSpace& ts, const SampleView& s, Real radius, const VoxelBox& box,
                     const CpuGridSink& sink, const Column& column, Taps&& taps) {
  const ColumnFrame f(ts, s.M, radius);
  const int ca = f.ca, aa = f.aa, ba = f.ba;
  const int tmin[3] = {ts.min_x, ts.min_y, ts.min_z}, tmax[3] = {ts.max_x, ts.max_y, ts.max_z};
  const int a_lo = std::max(box.lo[aa], tmin[aa]), a_hi = std::min(box.hi[aa], tmax[aa]);
  const int b_lo = std::max(box.lo[ba], tmin[ba]), b_hi = std::min(box.hi[ba], tmax[ba]);
  const int c_min = std::max(box.lo[ca], 0), c_max = std::min(box.hi[ca], s.M);
  const std::size_t side = static_cast<std::size_t>(sink.side);
  const std::size_t stride[3] = {1, side, side * side};
  const Real iw = ts.weight;
  // The slab crosses the box's c range only where w0 = wa ka + wb kb lies in [-r - wc kc, r - wc kc]
  // for some kc of that range: per row b an interval of a (solved_range still decides each column).
  const double kc0 = c_min - f.half, kc1 = c_max - f.half, wc = 1.0 / f.inv_wc;
  const double pmin = std::min(wc * kc0, wc * kc1), pmax = std::max(wc * kc0, wc * kc1);
  const double rw = f.radius + 2 * kMarginLength;
  for (int b = b_lo; b <= b_hi; ++b) {
    int a_from = a_lo, a_to = a_hi;
    const double kb = b - f.half;
    const double lo_w = -rw - pmax - f.wb * kb, hi_w = rw - pmin - f.wb * kb; // bounds on wa ka
    if (f.wa > 1e-9 || f.wa < -1e-9) {
      double k0 = lo_w / f.wa, k1 = hi_w / f.wa;
      if (k0 > k1) std::swap(k0, k1);
      a_from = std::max(a_from, static_cast<int>(std::ceil(k0 + f.half)));
      a_to = std::min(a_to, static_cast<int>(std::floor(k1 + f.half)));
    } else if (lo_w > 0.0 || hi_w < 0.0) {
      continue;
    }
    for (int a = a_from; a <= a_to; ++a) {
      int lo, hi;
      if (!solved_range(f, a, b, c_min, c_max, lo, hi)) continue;
      int c0, c1;
      column_span(ts, a, b, s.M, lo, hi, c0, c1);
      const std::size_t base = a * stride[aa] + b * stride[ba];
      column(ts, s, radius, a, b, c0, c1, [&](int c, Real u, Real v, Real w) {
        Real gr, gi, ws;
        if (!taps(u, v, w, gr, gi, ws)) return;
        const std::size_t idx = base + std::size_t(c) * stride[ca];
        sink.g[idx] += RealComplex(iw * gr, iw * gi);
        sink.w[idx] += iw * ws;
      });
    }
  }
}

/// True when every tap of a voxel lies in a 4 x 4 window that fits in the sample.
inline bool window_fits(const SampleView& s, Real radius) { return radius < Real(2) && s.fx >= 4 && s.fy >= 4; }

/// Rows of the window: below a radius of 1.5 the taps in reach span at most 3 rows (and 3 of the
/// 4 columns, the fourth weighing 0), so the fourth row is not read.
inline int window_rows(Real radius) { return radius < Real(1.5) ? 3 : 4; }

/// The tap sums of one voxel: the window kernel when the radius is below 2 (every tap then lies
/// in rows ceil(v - a) .. +3 and columns ceil(u - a) .. +3; below 1.5 in rows .. +2). A window
/// that would leave the sample is moved inside it: the rows and columns it gains lie farther than
/// a from (u, v) and weigh 0, so it sums the same taps. Other radii use gather_taps (the shared
/// code).
template <class Window>
struct WindowOrShared {
  const SampleView& s;
  const TraverseSpace& ts;
  BlobTableView table;
  Real radius, r2;
  bool window_ok; ///< radius < 2 and a sample of at least 4 x 4
  Window window;
  int rows = 4;   ///< window_rows(radius)
  bool operator()(Real u, Real v, Real w, Real& gr, Real& gi, Real& ws) const {
    if (window_ok) {
      int i0 = static_cast<int>(real_ceil(v - radius)), j0 = static_cast<int>(real_ceil(u - radius));
      i0 = std::min(std::max(i0, 0), s.fy - rows);
      j0 = std::min(std::max(j0, 0), s.fx - 4);
      const std::size_t p = std::size_t(ts.projection_index) * s.fx * s.fy + std::size_t(i0) * s.fx + j0;
      return window(s.spectra + p, s.gw ? s.gw + p : nullptr, s.fx, u, v, w, i0, j0, r2, table, gr, gi, ws, rows);
    }
    return gather_taps<0>(ts, u, v, w, s, radius, TableWeight{table}, gr, gi, ws);
  }
};

} // namespace
} // namespace cpu_walk
} // namespace FROST_RECON_PRECISION
} // namespace frost::recon
