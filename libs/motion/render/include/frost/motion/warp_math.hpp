#pragma once
/// @file warp_math.hpp
/// @brief Per-pixel rules of the renderer (docs/movie_align.md#warping-a-frame and #dose-weighting),
/// shared by the host warps and the CUDA render kernels (cuda/motion): the mirrored cubic B-spline taps
/// of a sample position, the spline shift field at one pixel, and the dose weight of one frequency.
#include <math.h>

#include "frost/core/hd.hpp"
#include "frost/core/shape.hpp"
#include "frost/geometry/bspline.hpp"
#include "frost/geometry/fourier_shift.hpp"
#include "frost/motion/dose_weighting.hpp"
#include "frost/motion/motion_model.hpp"

namespace frost::motion {

/// Whole-sample mirror of a continuous coordinate into [0, n − 1] (reflection about the first
/// and last pixel centres, period 2n − 2). The prefilter's mirror boundary makes the spline
/// symmetric about the same points, so this equals evaluating the mirrored spline.
FROST_HD inline double mirror_coordinate(double u, index_t n) {
  if (n == 1) return 0.0;
  const double last = static_cast<double>(n - 1);
  if (u >= 0.0 && u <= last) return u;
  const double period = 2.0 * last;
  u = fmod(u, period);
  if (u < 0.0) u += period;
  return u <= last ? u : period - u;
}

/// The four coefficient indices (mirrored only near the edges) and weights of a sample at u.
struct Taps {
  index_t index[4];
  double weight[4];
};

FROST_HD inline Taps taps_at(double u, index_t n) {
  u = mirror_coordinate(u, n);
  const double f = floor(u);
  Taps t;
  geom::cubic_bspline_weights(u - f, t.weight);
  const index_t first = static_cast<index_t>(f) - 1;
  const bool inside = first >= 0 && first + 3 < n;
  for (int i = 0; i < 4; ++i) t.index[i] = inside ? first + i : geom::mirror_index(first + i, n);
  return t;
}

/// The cubic B-spline with coefficients `coeffs` (nx x ny, row-major) at (u, v), positions
/// outside the frame mirrored back: 4 x 4 taps, rows summed along x first, in double.
FROST_HD inline float bspline_sample(const float* coeffs, index_t nx, index_t ny, double u, double v) {
  const Taps tx = taps_at(u, nx);
  const Taps ty = taps_at(v, ny);
  double acc = 0.0;
  for (int j = 0; j < 4; ++j) {
    const float* line = coeffs + ty.index[j] * nx;
    double r = 0.0;
    for (int i = 0; i < 4; ++i) r += tx.weight[i] * static_cast<double>(line[tx.index[i]]);
    acc += ty.weight[j] * r;
  }
  return static_cast<float>(acc);
}

/// The up to four control indices l (of −1 … count−2) whose β(u − l) is non-zero at u, with
/// their weights; indices beyond the grid get weight 0 and index −1 (any valid one).
FROST_HD inline void control_taps(double u, int count, int index[4], double weight[4]) {
  const int first = static_cast<int>(floor(u)) - 1;
  for (int i = 0; i < 4; ++i) {
    const int l = first + i;
    const bool exists = l >= -1 && l <= count - 2;
    index[i] = exists ? l : -1;
    weight[i] = exists ? bspline_basis(u - l) : 0.0;
  }
}

/// @brief The B-spline part of a frame's shift at pixel (x, y) from its time-folded control
/// planes px, py (ly rows of lx values, index (m+1)·lx + (l+1)), added to `base` (the global
/// shift in residual mode): the control rows are folded with the y weights first, then the
/// columns with the x weights, as FrameShift::row() does.
FROST_HD inline void spline_shift_at(const double* px, const double* py, int lx, int ly, double hx, double hy,
                                     double x, double y, double base_x, double base_y, double* sx, double* sy) {
  int iy[4], ix[4];
  double wy[4], wx[4];
  control_taps(y / hy, ly, iy, wy);
  control_taps(x / hx, lx, ix, wx);
  double ax = base_x, ay = base_y;
  for (int i = 0; i < 4; ++i) {
    // rx[l] of FrameShift::FoldedSpline::fold_row for the column l = ix[i]: zero-weight rows skipped.
    double rx = 0.0, ry = 0.0;
    for (int j = 0; j < 4; ++j) {
      if (wy[j] == 0.0) continue;
      const int k = (iy[j] + 1) * lx + (ix[i] + 1);
      rx += wy[j] * px[k];
      ry += wy[j] * py[k];
    }
    ax += wx[i] * rx;
    ay += wx[i] * ry;
  }
  *sx = ax;
  *sy = ay;
}

/// 1/(2 N_e(k)) of half-spectrum element (jx, jy) of an nx x ny frame with pixels of
/// `pixel_size` Å (0 at k = 0): one element of half_exposure_inverse(), on the host and the GPU.
FROST_HD inline float half_exposure_inverse_at(index_t jx, index_t jy, index_t nx, index_t ny, double pixel_size) {
  const double fy = static_cast<double>(geom::fft_frequency(jy, ny)) / static_cast<double>(ny);
  const double fx = static_cast<double>(jx) / static_cast<double>(nx);
  const double k = sqrt(fx * fx + fy * fy) / pixel_size;
  return k > 0.0 ? static_cast<float>(0.5 / critical_exposure_positive(k)) : 0.f;
}

/// Dose weight exp(−D·(1/(2 N_e(k)))) from the tabulated 1/(2 N_e(k)) of one frequency.
FROST_HD inline float dose_weight_from_table(double dose, float half_exposure_inverse) {
  return static_cast<float>(exp(-dose * static_cast<double>(half_exposure_inverse)));
}

} // namespace frost::motion
