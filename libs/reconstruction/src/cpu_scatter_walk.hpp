#pragma once
// The brick walk of the CPU scatter (docs/reconstruct_fourier.md#the-separable-kernel), written
// once and compiled twice: by cpu_scatter.cpp for the build's own target and by
// cpu_scatter_avx2.cpp after switching the target to AVX2 + FMA (the fixed 8- and 4-float rows
// below then become single vector instructions). Internal linkage: neither copy may stand in for
// the other at link time.
#include <algorithm>
#include <cmath>

#include "frost/reconstruction/cpu_gather.hpp"
#include "frost/reconstruction/scatter.hpp"

namespace frost::recon {
inline namespace FROST_RECON_PRECISION {
namespace cpu_scatter_walk {
namespace {

/// Margin of the solved sample ranges: far above the float rounding of the positions; a sample
/// taken in by it scatters nothing into the box (its window is clipped away).
constexpr double kMargin = 1e-3;

/// The window origins and kernel factors of a sample at (px, py, pz): the window policy (scatter.hpp)
/// on each axis.
template <class Window>
inline void window_weights_scalar(const Window& win, Real px, Real py, Real pz, Real* kx, Real* ky, Real* kz, int& ox,
                                  int& oy, int& oz) {
  ox = win(px, kx);
  oy = win(py, ky);
  oz = win(pz, kz);
}

/// The row operations of the walk, portable (cpu_scatter_avx2.cpp has a vector copy): the
/// window's factors from the window policy; one x row of a window, g[0..8) += k gx (4 complex
/// values), w[0..4) += k wx; with per-voxel factors k4 in lanes().
struct LoopRow {
  template <class Window>
  void window_weights(const Window& win, Real px, Real py, Real pz, Real* kx, Real* ky, Real* kz, int& ox, int& oy,
                      int& oz) const {
    window_weights_scalar(win, px, py, pz, kx, ky, kz, ox, oy, oz);
  }
  void operator()(Real* g, Real* w, Real k, const Real* gx, const Real* wx) const {
    for (int q = 0; q < 2 * kScatterWindow; ++q) g[q] += k * gx[q];
    for (int q = 0; q < kScatterWindow; ++q) w[q] += k * wx[q];
  }
  void lanes(Real* g, Real* w, const Real* k4, const Real* gx, const Real* wx) const {
    for (int q = 0; q < 2 * kScatterWindow; ++q) g[q] += k4[q / 2] * gx[q];
    for (int q = 0; q < kScatterWindow; ++q) w[q] += k4[q] * wx[q];
  }
  /// A row near the sphere's edge: factor k for the voxels with dx2 <= left, 0 for the others.
  void sphere_lanes(Real* g, Real* w, Real k, const Real* dx2, Real left, const Real* gx, const Real* wx) const {
    Real k4[kScatterWindow];
    for (int a = 0; a < kScatterWindow; ++a) k4[a] = dx2[a] <= left ? k : Real(0);
    lanes(g, w, k4, gx, wx);
  }
  /// The rows of a window inside the box and the sphere: nc x nb rows of 4 voxels from (g, w),
  /// row (b, c) at + b side + c plane voxels, factor iw kz[c] ky[b] kx[a] times (f, gfac).
  void window(Real* g, Real* w, std::size_t side, std::size_t plane, int nc, int nb, const Real* kx, const Real* ky,
              const Real* kz, Cf f, Real gfac, Real iw) const {
    Real gx[2 * kScatterWindow], wx[kScatterWindow];
    for (int a = 0; a < kScatterWindow; ++a) {
      const Real k = iw * kx[a];
      gx[2 * a] = k * f.re;
      gx[2 * a + 1] = k * f.im;
      wx[a] = k * gfac;
    }
    for (int c = 0; c < nc; ++c)
      for (int b = 0; b < nb; ++b) {
        const std::size_t o = c * plane + b * side;
        (*this)(g + 2 * o, w + o, kz[c] * ky[b], gx, wx);
      }
  }
};

/// Per space and box: the row-independent part of solve_columns, 1/T[0][d] once instead of per row.
struct ColumnSolver {
  double inv_t[3], slope[3];
  explicit ColumnSolver(const TraverseSpace& ts) {
    const auto& T = ts.transform_inv.m;
    for (int d = 0; d < 3; ++d) {
      const double t = T[0][d];
      inv_t[d] = (t > 1e-9 || t < -1e-9) ? 1.0 / t : 0.0;
      slope[d] = T[1][d];
    }
  }
};

/// The columns [j0, j1] of sample row ky whose positions p satisfy lo <= p < hi on every axis
/// (with a margin that only adds samples whose windows miss the box), within [jlo, jhi].
inline void solve_columns(const ColumnSolver& cs, double ky, double half, const double* lo, const double* hi,
                          double jlo, double jhi, int& j0, int& j1) {
  for (int d = 0; d < 3 && jlo <= jhi; ++d) {
    const double c = cs.slope[d] * ky + half;
    if (cs.inv_t[d] != 0.0) {
      double a = (lo[d] - c) * cs.inv_t[d], b = (hi[d] - c) * cs.inv_t[d];
      if (a > b) std::swap(a, b);
      jlo = std::max(jlo, a - kMargin);
      jhi = std::min(jhi, b + kMargin);
    } else if (c < lo[d] - kMargin || c > hi[d] + kMargin) {
      jhi = -1;
    }
  }
  j0 = static_cast<int>(std::ceil(jlo));
  j1 = jhi >= jlo ? static_cast<int>(std::floor(jhi)) : j0 - 1;
}

/// Adds every sample of `ts` whose window (W voxels per axis) meets `box` into the voxels of the
/// window inside the box, rows of samples ascending, columns ascending: the additions of
/// scatter_sample restricted to the box (same voxels, same weights; the products are grouped
/// differently). The brick pass gives boxes that span the whole x axis, so that a window row is
/// clipped only at the cube's edge and is added as one vector row of 4 voxels (for W = 3 the
/// fourth weighs 0; it lies in the same x row of the box).
template <int W, class Window, class Row>
inline void scatter_box_window(const TraverseSpace& ts, const SampleView& s, const Window& win, const VoxelBox& box,
                               const CpuGridSink& sink, const Row& add_row) {
  const auto& T = ts.transform_inv.m;
  const double half = 0.5 * s.M;
  // A sample at p reaches the box when box.lo - W/2 <= p < box.hi + W/2 on every axis (its window
  // is floor(p) - 1 .. floor(p) + 2, or round(p) - 1 .. round(p) + 1). Its (kx, ky) =
  // (T[0] . q, T[1] . q), q = p - M/2, are bounded by the expanded box's corners.
  const double margin = 0.5 * W;
  double lo[3], hi[3];
  for (int d = 0; d < 3; ++d) {
    lo[d] = box.lo[d] - margin;
    hi[d] = box.hi[d] + margin;
  }
  double umin = 1e300, umax = -1e300, vmin = 1e300, vmax = -1e300;
  for (int corner = 0; corner < 8; ++corner) {
    const double q[3] = {((corner & 1) ? hi[0] : lo[0]) - half, ((corner & 2) ? hi[1] : lo[1]) - half,
                         ((corner & 4) ? hi[2] : lo[2]) - half};
    const double u = T[0][0] * q[0] + T[0][1] * q[1] + T[0][2] * q[2];
    const double v = T[1][0] * q[0] + T[1][1] * q[1] + T[1][2] * q[2];
    umin = std::min(umin, u);
    umax = std::max(umax, u);
    vmin = std::min(vmin, v);
    vmax = std::max(vmax, v);
  }
  const double vhalf = 0.5 * s.fy;
  const int i_from = std::max(0, static_cast<int>(std::ceil(vmin + vhalf - kMargin)));
  const int i_to = std::min(s.fy - 1, static_cast<int>(std::floor(vmax + vhalf + kMargin)));
  const int j_from = std::max(0, static_cast<int>(std::ceil(umin - kMargin)));
  const int j_to = std::min(s.fx - 1, static_cast<int>(std::floor(umax + kMargin)));
  if (i_from > i_to || j_from > j_to) return;
  // Samples beyond reach_out reach no voxel of the sphere; within reach_in every voxel of their
  // window lies in it (|v - p| < margin sqrt(3) in the window).
  const double rmax = std::sqrt(static_cast<double>(ts.max_distance_sqr));
  const double window_diag = margin * std::sqrt(3.0);
  const double reach_out = rmax + window_diag + kMargin, reach_in = rmax - window_diag - kMargin;
  const double reach_out2 = reach_out * reach_out, reach_in2 = reach_in > 0 ? reach_in * reach_in : -1.0;
  const std::size_t side = static_cast<std::size_t>(sink.side);
  const std::size_t plane = side * side;
  const Real iw = ts.weight;
  const Real rmax2 = ts.max_distance_sqr;
  const Real rhalf = static_cast<Real>(half);
  const int M = s.M;
  const std::size_t slot = static_cast<std::size_t>(ts.projection_index) * s.fx * s.fy;
  // The columns of row i whose windows meet the box (empty when j0 > j1).
  const ColumnSolver solver(ts);
  auto columns = [&](int i, int& j0, int& j1) {
    const double ky = i - vhalf;
    const double ky2 = ky * ky;
    j0 = 1;
    j1 = 0;
    if (ky2 > reach_out2) return;
    solve_columns(solver, ky, half, lo, hi, j_from, std::min<double>(j_to, std::sqrt(reach_out2 - ky2)), j0, j1);
    j0 = std::max(j0, j_from);
  };
  // A brick pass visits many spaces, and a space's samples are rarely still in the cache: the
  // samples of the row after next are prefetched while this row is added.
  constexpr int kAhead = 2;
  int ahead_j0[kAhead + 1], ahead_j1[kAhead + 1];
  for (int a = 0; a <= kAhead; ++a) columns(i_from + a, ahead_j0[a], ahead_j1[a]);
  for (int i = i_from; i <= i_to; ++i) {
    const int j0 = ahead_j0[0], j1 = ahead_j1[0];
    for (int a = 0; a < kAhead; ++a) {
      ahead_j0[a] = ahead_j0[a + 1];
      ahead_j1[a] = ahead_j1[a + 1];
    }
    if (i + kAhead + 1 <= i_to) {
      int& n0 = ahead_j0[kAhead];
      int& n1 = ahead_j1[kAhead];
      columns(i + kAhead + 1, n0, n1);
      if (n0 <= n1) {
        const Cf* row = s.spectra + slot + static_cast<std::size_t>(i + kAhead + 1) * s.fx;
        __builtin_prefetch(row + n0);
        __builtin_prefetch(row + n1);
        if (s.gw) {
          const Real* grow = s.gw + slot + static_cast<std::size_t>(i + kAhead + 1) * s.fx;
          __builtin_prefetch(grow + n0);
          __builtin_prefetch(grow + n1);
        }
      }
    }
    if (j0 > j1) continue;
    const double ky = i - vhalf;
    const double ky2 = ky * ky;
    // Columns j <= j_inner have every window voxel inside the sphere.
    const double inner_left = reach_in2 - ky2;
    const int j_inner = inner_left < 0 ? -1 : static_cast<int>(std::floor(std::sqrt(inner_left)));
    auto one_sample = [&](int j) {
      Real px, py, pz;
      sample_position(ts, j, i, s, px, py, pz);
      alignas(16) Real kx[kScatterWindow], kyv[kScatterWindow], kz[kScatterWindow];
      int ox, oy, oz;
      add_row.window_weights(win, px, py, pz, kx, kyv, kz, ox, oy, oz);
      const int c0 = std::max(0, box.lo[2] - oz), c1 = std::min(W - 1, box.hi[2] - oz);
      const int b0 = std::max(0, box.lo[1] - oy), b1 = std::min(W - 1, box.hi[1] - oy);
      if (c0 > c1 || b0 > b1 || ox + W - 1 < box.lo[0] || ox > box.hi[0]) return;
      const std::size_t p = slot + static_cast<std::size_t>(i) * s.fx + j;
      const Cf f = s.spectra[p];
      const Real g = s.gw ? s.gw[p] : Real(1);
      if (ox >= box.lo[0] && ox + kScatterWindow - 1 <= box.hi[0] && ox + kScatterWindow - 1 <= M) {
        // The 4-voxel x rows lie in the box: 8 + 4 floats per row; near the sphere's edge the
        // voxels beyond it get a factor 0.
        const bool inner = j <= j_inner;
        const std::size_t first = (std::size_t(oz + c0) * side + std::size_t(oy + b0)) * side + std::size_t(ox);
        RealComplex* gz = sink.g + first;
        Real* wz = sink.w + first;
        if (inner) {
          add_row.window(reinterpret_cast<Real*>(gz), wz, side, plane, c1 - c0 + 1, b1 - b0 + 1, kx, kyv + b0, kz + c0,
                         f, g, iw);
          return;
        }
        Real gx[2 * kScatterWindow], wx[kScatterWindow], dx2[kScatterWindow];
        for (int a = 0; a < kScatterWindow; ++a) {
          const Real k = iw * kx[a];
          gx[2 * a] = k * f.re;
          gx[2 * a + 1] = k * f.im;
          wx[a] = k * g;
          const Real dx = static_cast<Real>(ox + a) - rhalf;
          dx2[a] = dx * dx;
        }
        for (int c = c0; c <= c1; ++c, gz += plane, wz += plane) {
          const Real dz = static_cast<Real>(oz + c) - rhalf;
          RealComplex* gy = gz;
          Real* wy = wz;
          for (int b = b0; b <= b1; ++b, gy += side, wy += side) {
            const Real kyz = kz[c] * kyv[b];
            const Real dy = static_cast<Real>(oy + b) - rhalf;
            const Real left = rmax2 - dy * dy - dz * dz;
            add_row.sphere_lanes(reinterpret_cast<Real*>(gy), wy, kyz, dx2, left, gx, wx);
          }
        }
        return;
      }
      // Clipped by the box or the cube's x edge: voxel by voxel.
      const int a0 = std::max(0, box.lo[0] - ox), a1 = std::min(W - 1, box.hi[0] - ox);
      for (int c = c0; c <= c1; ++c) {
        const Real dz = static_cast<Real>(oz + c) - rhalf;
        for (int b = b0; b <= b1; ++b) {
          const Real kyz = kz[c] * kyv[b];
          if (kyz == Real(0)) continue;
          const Real dy = static_cast<Real>(oy + b) - rhalf;
          const std::size_t row = (std::size_t(oz + c) * side + std::size_t(oy + b)) * side;
          for (int a = a0; a <= a1; ++a) {
            const Real dx = static_cast<Real>(ox + a) - rhalf;
            if (dx * dx + dy * dy + dz * dz > rmax2) continue;
            const Real k = kyz * (iw * kx[a]);
            const std::size_t idx = row + std::size_t(ox + a);
            sink.g[idx] += RealComplex(k * f.re, k * f.im);
            sink.w[idx] += k * g;
          }
        }
      }
    };
    for (int j = j0; j <= j1; ++j) one_sample(j);
  }
}

/// scatter_box_window for the window of `win` (TableWindow or DynamicWindow).
template <class Window, class Row = LoopRow>
inline void scatter_box(const TraverseSpace& ts, const SampleView& s, const Window& win, const VoxelBox& box,
                        const CpuGridSink& sink, const Row& add_row = Row{}) {
  if (win.window() == 3)
    scatter_box_window<3>(ts, s, win, box, sink, add_row);
  else
    scatter_box_window<4>(ts, s, win, box, sink, add_row);
}

} // namespace
} // namespace cpu_scatter_walk
} // namespace FROST_RECON_PRECISION
} // namespace frost::recon
