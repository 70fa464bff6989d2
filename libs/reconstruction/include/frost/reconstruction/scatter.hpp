#pragma once
/// @file scatter.hpp
/// @brief The scatter insertion with the separable kernel (docs/reconstruct_fourier.md#the-separable-kernel):
/// one sample pixel of a traverse space adds into the 3^3 or 4^3 voxels around its position in the
/// cube, weighted by k(dx) k(dy) k(dz), k one 1-D Kaiser-Bessel factor (tabulated per window
/// offset, or computed). Written once as FROST_HD code: the CUDA scatter kernel calls scatter_sample with
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

/// Origin of the window of `window` voxels (scatter_window) around position p on one axis:
/// floor(p) - 1, or floor(p + 1/2) - 1 for 3 voxels.
FROST_HD inline int window_origin(Real p, int window) {
  return static_cast<int>(real_floor(window == 3 ? p + Real(0.5) : p)) - 1;
}

/// The kernel factors of a window along one axis: k[q] = weight((o + q - p)^2) for q < window and
/// 0 beyond, o = window_origin(p, window), which it returns. `Weight` maps a squared distance to
/// the 1-D factor (DynamicWeight, or TableWeight on a 1-D-normalised BlobTable), 0 beyond the
/// radius.
template <class Weight>
FROST_HD inline int axis_weights(Real p, int window, const Weight& weight, Real k[kScatterWindow]) {
  const int o = window_origin(p, window);
  for (int q = 0; q < kScatterWindow; ++q) {
    const Real d = static_cast<Real>(o + q) - p;
    k[q] = q < window ? weight(d * d) : Real(0);
  }
  return o;
}

/// The window factors tabulated against the position's offset t = p - (o + 1) in its window
/// (t in [-1/2, 1/2] for 3 voxels, [0, 1) for 4): `rows` rows of 4 Reals, row r at t_r = t0 +
/// r / (rows - 1) holding k(q - 1 - t_r) for q < window and 0 beyond. Read with linear
/// interpolation between two rows (TableWindow): one pass over 8 Reals per axis instead of a
/// table lookup per voxel of the window.
struct WindowTableView {
  const Real* data = nullptr; ///< rows x 4
  int rows = 0;
  int window = 3;
  Real t0 = 0;                ///< -1/2 for 3 voxels, 0 for 4
  Real inv_step = 0;          ///< rows - 1
};

/// The view of a host WindowTable (blob.hpp).
inline WindowTableView window_table_view(const WindowTable& t) {
  WindowTableView v;
  v.data = t.values().data();
  v.rows = t.rows();
  v.window = t.window();
  v.t0 = t.window() == 3 ? Real(-0.5) : Real(0);
  v.inv_step = static_cast<Real>(t.rows() - 1);
  return v;
}

/// Window factors from a WindowTableView (the table mode of the separable kernel).
struct TableWindow {
  WindowTableView table;
  FROST_HD int window() const { return table.window; }
  FROST_HD int operator()(Real p, Real k[kScatterWindow]) const {
    const int o = window_origin(p, table.window);
    const Real x = (p - static_cast<Real>(o + 1) - table.t0) * table.inv_step;
    int r = static_cast<int>(x);
    r = r < 0 ? 0 : (r > table.rows - 2 ? table.rows - 2 : r);
    const Real f = x - static_cast<Real>(r);
    const Real* a = table.data + 4 * r;
    for (int q = 0; q < kScatterWindow; ++q) k[q] = a[q] + f * (a[q + 4] - a[q]);
    return o;
  }
};

/// Window factors computed per voxel of the window (`--interp dynamic`).
struct DynamicWindow {
  DynamicWeight weight;
  int size = 3; ///< scatter_window of the radius
  FROST_HD int window() const { return size; }
  FROST_HD int operator()(Real p, Real k[kScatterWindow]) const { return axis_weights(p, size, weight, k); }
};

/// @brief Scatters sample pixel (j, i) of `ts` with the window factors of `win` (TableWindow or
/// DynamicWindow): acc(x, y, z, g_re, g_im, w) for every voxel of its window inside the cube
/// (0..M), within the sphere |v - M/2|^2 <= max_distance_sqr and with a non-zero weight, already
/// scaled by the image weight: the value times K, and K times the pixel's weight factor (gw, or 1).
template <class Window, class Accumulate>
FROST_HD inline void scatter_sample(const TraverseSpace& ts, int j, int i, const SampleView& s, const Window& win,
                                    Accumulate&& acc) {
  Real px, py, pz;
  sample_position(ts, j, i, s, px, py, pz);
  Real kx[kScatterWindow], ky[kScatterWindow], kz[kScatterWindow];
  const int ox = win(px, kx), oy = win(py, ky), oz = win(pz, kz);
  const int window = win.window();
  const int p = (ts.projection_index * s.fy + i) * s.fx + j;
  const Cf f = s.spectra[p];
  const Real g = s.gw ? s.gw[p] : Real(1);
  const Real half = Real(0.5) * s.M;
  for (int c = 0; c < window; ++c) {
    const int z = oz + c;
    if (z < 0 || z > s.M || kz[c] == Real(0)) continue;
    const Real dz = z - half;
    for (int b = 0; b < window; ++b) {
      const int y = oy + b;
      if (y < 0 || y > s.M || ky[b] == Real(0)) continue;
      const Real dy = y - half;
      const Real kyz = ts.weight * kz[c] * ky[b];
      for (int a = 0; a < window; ++a) {
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
