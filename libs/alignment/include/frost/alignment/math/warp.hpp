#pragma once
/// @file warp.hpp
/// @brief Bilinear warp of one pixel (align-significant.md §2 "Warp"), shared by CPU and CUDA.
///
/// W_A[I](p) = I(A⁻¹ p) in centred coordinates (origin ⌊X/2⌋, ⌊Y/2⌋). Samples whose source
/// position lies outside 0 ≤ u < X − 1, 0 ≤ v < Y − 1 are 0: the strict upper bound means the
/// last row and column are never interpolation support, exactly as Xmipp's GPU interpolator
/// (`cuda_geo_linear_interpolator.cu`), so both programs see the same zero margin.
#include "frost/alignment/math/pose2d.hpp"

namespace frost::align {

/// Bilinear value at pixel position (u, v) of an image read through at(i, j); the caller
/// guarantees that the four neighbours exist.
template <class At>
FROST_HD inline float bilinear_at(const At& at, float u, float v) {
  const int i = static_cast<int>(u), j = static_cast<int>(v);
  const float fx = u - static_cast<float>(i), fy = v - static_cast<float>(j);
  const float p00 = at(i, j), p10 = at(i + 1, j), p01 = at(i, j + 1), p11 = at(i + 1, j + 1);
  const float top = p00 + fx * (p10 - p00);
  const float bottom = p01 + fx * (p11 - p01);
  return top + fy * (bottom - top);
}

/// Bilinear value at pixel position (u, v) of a row-major nx × ny image; the caller guarantees
/// 0 ≤ u < nx − 1 and 0 ≤ v < ny − 1.
FROST_HD inline float bilinear_inside(const float* img, int nx, float u, float v) {
  return bilinear_at([img, nx](int i, int j) { return img[static_cast<long long>(j) * nx + i]; }, u, v);
}

/// As bilinear_inside(), but 0 where the position is outside the supported area.
FROST_HD inline float bilinear_or_zero(const float* img, int nx, int ny, float u, float v) {
  if (!(u >= 0.0f && v >= 0.0f && u < static_cast<float>(nx - 1) && v < static_cast<float>(ny - 1))) return 0.0f;
  return bilinear_inside(img, nx, u, v);
}

/// Output pixel (i, j) of W_A[I], given inv = A⁻¹.
FROST_HD inline float warp_pixel(const float* src, int nx, int ny, const Pose2& inv, int i, int j) {
  const float cx = static_cast<float>(nx / 2), cy = static_cast<float>(ny / 2);
  const float x = static_cast<float>(i) - cx, y = static_cast<float>(j) - cy;
  const float sx = inv.a00 * x + inv.a01 * y + inv.a02;
  const float sy = inv.a10 * x + inv.a11 * y + inv.a12;
  return bilinear_or_zero(src, nx, ny, sx + cx, sy + cy);
}

} // namespace frost::align
