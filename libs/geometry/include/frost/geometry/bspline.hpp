#pragma once
/// @file bspline.hpp
/// @brief Cubic B-spline interpolation of 2-D images: prefilter (samples -> coefficients) and evaluation.
///
/// Interpolating cubic B-spline (Unser, "Splines: a perfect fit for signal and image
/// processing", 1999): the image is f(x, y) = Σ c[i, j]·β³(x − i)·β³(y − j). The coefficients c
/// make f pass through the samples; they come from the samples by the separable recursive
/// filter with pole z = √3 − 2 (gain 6), one causal and one anti-causal pass per axis.
///
/// Boundaries: whole-sample mirror (…, s[2], s[1], | s[0], s[1], …, s[n−1], | s[n−2], …), used
/// both to start the prefilter recursions and to read coefficients past the edges during
/// evaluation, so f interpolates the samples everywhere, edges included.
/// Out of range: f is evaluated on the pixel footprints [−0.5, n − 0.5] of each axis (the half
/// pixel beyond the first/last sample centre keeps rounding noise such as cos 90° ≈ 6e-17 from
/// dropping edge pixels) and is 0 outside. bspline_test.cpp pins: samples reproduced after the
/// prefilter, cubic polynomials reproduced in the interior, 90° rotation equals the exact
/// transpose-flip.
#include "frost/core/image.hpp"
#include "frost/geometry/hd_math.hpp"

namespace frost::geom {

/// Cubic B-spline weights for the samples floor−1, floor, floor+1, floor+2 at fractional offset
/// t ∈ [0, 1) from floor: β³(t+1), β³(t), β³(t−1), β³(t−2). They sum to 1.
template <class C>
FROST_HD inline void cubic_bspline_weights(C t, C w[4]) {
  const C t2 = t * t, t3 = t2 * t, u = C(1) - t;
  const C sixth = C(1) / C(6);
  w[0] = u * u * u * sixth;
  w[1] = (C(4) - C(6) * t2 + C(3) * t3) * sixth;
  w[2] = (C(1) + C(3) * t + C(3) * t2 - C(3) * t3) * sixth;
  w[3] = t3 * sixth;
}

/// Whole-sample mirror of index i into [0, n) (period 2n − 2; n = 1 maps everything to 0).
FROST_HD inline index_t mirror_index(index_t i, index_t n) {
  if (n == 1) return 0;
  const index_t period = 2 * n - 2;
  i %= period;
  if (i < 0) i += period;
  return i < n ? i : period - i;
}

/// Value at (x, y) (pixel-index units) of the cubic B-spline with coefficients `coeffs`
/// (item n of a stack of 2-D coefficient images), 0 outside [−0.5, nx − 0.5] x [−0.5, ny − 0.5].
template <class T, class C>
FROST_HD inline T bspline_interp2(View<const T> coeffs, C x, C y, index_t n = 0) {
  const index_t nx = coeffs.shape.x, ny = coeffs.shape.y;
  if (!(x >= C(-0.5) && y >= C(-0.5) && x <= C(nx) - C(0.5) && y <= C(ny) - C(0.5))) return T(0);
  const C fx = hdm::floor_(x), fy = hdm::floor_(y);
  const index_t x0 = static_cast<index_t>(fx) - 1, y0 = static_cast<index_t>(fy) - 1;
  C wx[4], wy[4];
  cubic_bspline_weights(x - fx, wx);
  cubic_bspline_weights(y - fy, wy);
  const bool inside = x0 >= 0 && y0 >= 0 && x0 + 3 < nx && y0 + 3 < ny;
  C acc = 0;
  for (int j = 0; j < 4; ++j) {
    const index_t yy = inside ? y0 + j : mirror_index(y0 + j, ny);
    C row = 0;
    for (int i = 0; i < 4; ++i) {
      const index_t xx = inside ? x0 + i : mirror_index(x0 + i, nx);
      row += wx[i] * static_cast<C>(coeffs(xx, yy, 0, n));
    }
    acc += wy[j] * row;
  }
  return static_cast<T>(acc);
}

/// @brief In-place cubic B-spline prefilter of one line of n samples held in double at
/// line[0], line[stride], … (Unser 1999, Box 2, whole-sample mirror boundaries): gain 6, causal
/// pass started with the mirrored series (summed over one period and closed with 1/(1 − z^period)
/// for short lines, cut where |z|^k is below double precision, |z|^28 < 1e-16, for long ones),
/// then the anti-causal pass. Host loops and the CUDA render kernels run this one code.
FROST_HD inline void bspline_prefilter_line(double* line, index_t n, index_t stride = 1) {
  if (n < 2) return;
  const double z = sqrt(3.0) - 2.0; // pole: root of z² + 4z + 1 with |z| < 1
  for (index_t k = 0; k < n; ++k) line[k * stride] *= 6.0; // (1 − z)(1 − 1/z) = 6

  // Causal start c⁺[0] = Σ_{k>=0} z^k s[−k] with the mirror extension (period 2n − 2).
  const index_t period = 2 * n - 2;
  const index_t horizon = 30;
  double c0 = 0.0;
  if (period <= horizon) {
    double zk = 1.0;
    for (index_t k = 0; k < period; ++k, zk *= z) c0 += zk * line[mirror_index(k, n) * stride];
    c0 /= 1.0 - zk; // zk = z^period here
  } else {
    double zk = 1.0;
    for (index_t k = 0; k < horizon; ++k, zk *= z) c0 += zk * line[mirror_index(k, n) * stride];
  }
  line[0] = c0;
  for (index_t k = 1; k < n; ++k) line[k * stride] += z * line[(k - 1) * stride];

  // Anti-causal start for the mirror boundary, then c⁻[k] = z·(c⁻[k+1] − c⁺[k]).
  const index_t last = n - 1;
  line[last * stride] = (z / (z * z - 1.0)) * (line[last * stride] + z * line[(last - 1) * stride]);
  for (index_t k = n - 2; k >= 0; --k) line[k * stride] = z * (line[(k + 1) * stride] - line[k * stride]);
}

/// @brief bspline_prefilter_line() as a streaming filter, for kernels that run one line per
/// thread over lines stored side by side (coalesced): the n samples in[0], in[stride], … are read
/// as float, the causal pass is kept in double at causal[0], causal[stride], …, and the result
/// is written as float to out[0], out[stride], … (out may alias in, not causal). The arithmetic
/// is the in-place function's, step by step: samples ×6 in double, the same mirrored start sum
/// (closed with 1/(1 − z^period) for short lines), c⁺[k] = 6·s[k] + z·c⁺[k−1], the same
/// anti-causal start and c⁻[k] = z·(c⁻[k+1] − c⁺[k]).
FROST_HD inline void bspline_prefilter_line_streamed(const float* in, double* causal, float* out, index_t n,
                                                     index_t stride) {
  if (n < 2) {
    if (n == 1) out[0] = in[0];
    return;
  }
  const double z = sqrt(3.0) - 2.0;
  const index_t period = 2 * n - 2;
  const index_t horizon = 30;
  double c0 = 0.0;
  if (period <= horizon) {
    double zk = 1.0;
    for (index_t k = 0; k < period; ++k, zk *= z)
      c0 += zk * (static_cast<double>(in[mirror_index(k, n) * stride]) * 6.0);
    c0 /= 1.0 - zk;
  } else {
    double zk = 1.0;
    for (index_t k = 0; k < horizon; ++k, zk *= z)
      c0 += zk * (static_cast<double>(in[mirror_index(k, n) * stride]) * 6.0);
  }
  causal[0] = c0;
  double prev = c0;
  // Loads are issued eight at a time so that a thread keeps several in flight.
  index_t k = 1;
  for (; k + 8 <= n; k += 8) {
    double s[8];
    for (int j = 0; j < 8; ++j) s[j] = static_cast<double>(in[(k + j) * stride]) * 6.0;
    for (int j = 0; j < 8; ++j) {
      prev = s[j] + z * prev;
      causal[(k + j) * stride] = prev;
    }
  }
  for (; k < n; ++k) {
    prev = static_cast<double>(in[k * stride]) * 6.0 + z * prev;
    causal[k * stride] = prev;
  }
  const index_t last = n - 1;
  double next = (z / (z * z - 1.0)) * (prev + z * causal[(last - 1) * stride]);
  out[last * stride] = static_cast<float>(next);
  index_t j = last - 1;
  for (; j >= 7; j -= 8) {
    double c[8];
    for (int i = 0; i < 8; ++i) c[i] = causal[(j - i) * stride];
    for (int i = 0; i < 8; ++i) {
      next = z * (next - c[i]);
      out[(j - i) * stride] = static_cast<float>(next);
    }
  }
  for (; j >= 0; --j) {
    next = z * (next - causal[j * stride]);
    out[j * stride] = static_cast<float>(next);
  }
}

/// In-place cubic B-spline prefilter of n samples data[0], data[stride], … (mirror boundaries).
template <class T>
void bspline_prefilter_1d(T* data, index_t n, index_t stride = 1);

/// In-place prefilter of every 2-D item of img: rows, then columns. img.shape.z must be 1.
template <class T>
void bspline_prefilter_2d(View<T> img);

/// Coefficients of the interpolating cubic B-spline of every 2-D item of img.
template <class T>
Image<T> bspline_coefficients_2d(View<const T> img);

extern template void bspline_prefilter_1d<float>(float*, index_t, index_t);
extern template void bspline_prefilter_1d<double>(double*, index_t, index_t);
extern template void bspline_prefilter_2d<float>(View<float>);
extern template void bspline_prefilter_2d<double>(View<double>);
extern template Image<float> bspline_coefficients_2d<float>(View<const float>);
extern template Image<double> bspline_coefficients_2d<double>(View<const double>);

} // namespace frost::geom
