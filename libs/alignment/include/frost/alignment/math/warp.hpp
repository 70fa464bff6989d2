#pragma once
/// @file warp.hpp
/// @brief Bilinear warp of one pixel (docs/align_significant.md#coordinates-poses-and-the-warp),
/// shared by CPU and CUDA.
///
/// W_A[I](p) = I(A⁻¹ p) in centred coordinates (origin ⌊X/2⌋, ⌊Y/2⌋). Samples whose source
/// position lies outside 0 ≤ u < X − 1, 0 ≤ v < Y − 1 are 0: the strict upper bound means the
/// last row and column are never interpolation support, exactly as Xmipp's GPU interpolator
/// (`cuda_geo_linear_interpolator.cu`), so both programs see the same zero margin.
#include "frost/alignment/math/pose2d.hpp"

namespace frost::align {

/// Bilinear value at pixel position (u, v) of an image read through at(i, j); the caller
/// guarantees that the four neighbours exist.
/// The bilinear blend of the four neighbours p00 = (i, j), p10 = (i + 1, j), p01 = (i, j + 1),
/// p11 = (i + 1, j + 1) at fractions fx, fy: one formula for every reader of the neighbours (so a
/// kernel that fetches two images' neighbours at once rounds as the CPU does).
FROST_HD inline float bilinear_blend(float p00, float p10, float p01, float p11, float fx, float fy) {
  const float top = p00 + fx * (p10 - p00);
  const float bottom = p01 + fx * (p11 - p01);
  return top + fy * (bottom - top);
}

template <class At>
FROST_HD inline float bilinear_at(const At& at, float u, float v) {
  const int i = static_cast<int>(u), j = static_cast<int>(v);
  const float fx = u - static_cast<float>(i), fy = v - static_cast<float>(j);
  return bilinear_blend(at(i, j), at(i + 1, j), at(i, j + 1), at(i + 1, j + 1), fx, fy);
}

/// Bilinear value at pixel position (u, v) of a row-major nx × ny image; the caller guarantees
/// 0 ≤ u < nx − 1 and 0 ≤ v < ny − 1.
FROST_HD inline float bilinear_inside(const float* img, int nx, float u, float v) {
  return bilinear_at([img, nx](int i, int j) { return img[static_cast<long long>(j) * nx + i]; }, u, v);
}

/// Source position (u, v) of output pixel (i, j) of W_A[I], given inv = A⁻¹; false where it lies
/// outside the supported area 0 ≤ u < nx − 1, 0 ≤ v < ny − 1 (the pixel is 0 there; NaN is outside).
FROST_HD inline bool warp_source(int nx, int ny, const Pose2& inv, int i, int j, float& u, float& v) {
  const float cx = static_cast<float>(nx / 2), cy = static_cast<float>(ny / 2);
  const float x = static_cast<float>(i) - cx, y = static_cast<float>(j) - cy;
  const float sx = inv.a00 * x + inv.a01 * y + inv.a02;
  const float sy = inv.a10 * x + inv.a11 * y + inv.a12;
  u = sx + cx;
  v = sy + cy;
  return u >= 0.0f && v >= 0.0f && u < static_cast<float>(nx - 1) && v < static_cast<float>(ny - 1);
}

/// Output pixel (i, j) of W_A[I], given inv = A⁻¹.
FROST_HD inline float warp_pixel(const float* src, int nx, int ny, const Pose2& inv, int i, int j) {
  float u, v;
  if (!warp_source(nx, ny, inv, i, j, u, v)) return 0.0f;
  return bilinear_inside(src, nx, u, v);
}

} // namespace frost::align
