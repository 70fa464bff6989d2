#pragma once
/// @file interpolation.hpp
/// @brief Bilinear (2-D) and trilinear (3-D) sampling with zero outside the array.
///
/// Coordinates are in pixel-index units of the item (x = 0 is the first column). The array is
/// taken as extended by zeros: a sample position mixes the 2 (2^d) neighbouring samples and
/// any neighbour outside the array contributes 0. So the result is continuous, equals the
/// samples at integer positions, reproduces polynomials of degree <= 1 exactly on
/// [0, n−1], fades linearly to 0 over the one-pixel band around the array and is exactly 0
/// at distance >= 1 pixel outside it. interpolation_test.cpp pins these properties.
#include "frost/core/image.hpp"
#include "frost/geometry/hd_math.hpp"

namespace frost::geom {

/// Weights of the two samples around position t ∈ [0, 1): w[0] at floor, w[1] at floor + 1.
template <class C>
FROST_HD inline void linear_weights(C t, C w[2]) {
  w[0] = C(1) - t;
  w[1] = t;
}

/// Sample (x, y, z) of item `n` of v, or 0 outside the array.
template <class T>
FROST_HD inline T sample_or_zero(View<const T> v, index_t x, index_t y, index_t z = 0, index_t n = 0) {
  if (x < 0 || y < 0 || z < 0 || x >= v.shape.x || y >= v.shape.y || z >= v.shape.z) return T(0);
  return v(x, y, z, n);
}

/// Bilinear value of the 2-D item `n` of img at (x, y); 0 where all neighbours are outside.
template <class T, class C>
FROST_HD inline T bilinear(View<const T> img, C x, C y, index_t n = 0) {
  if (!(x > C(-1) && y > C(-1) && x < C(img.shape.x) && y < C(img.shape.y))) return T(0);  // also NaN
  const C fx = hdm::floor_(x), fy = hdm::floor_(y);
  const index_t x0 = static_cast<index_t>(fx), y0 = static_cast<index_t>(fy);
  C wx[2], wy[2];
  linear_weights(x - fx, wx);
  linear_weights(y - fy, wy);
  C acc = 0;
  for (int j = 0; j < 2; ++j)
    for (int i = 0; i < 2; ++i)
      acc += wx[i] * wy[j] * static_cast<C>(sample_or_zero(img, x0 + i, y0 + j, 0, n));
  return static_cast<T>(acc);
}

/// Trilinear value of the volume item `n` of vol at (x, y, z); 0 where all neighbours are outside.
template <class T, class C>
FROST_HD inline T trilinear(View<const T> vol, C x, C y, C z, index_t n = 0) {
  if (!(x > C(-1) && y > C(-1) && z > C(-1) && x < C(vol.shape.x) && y < C(vol.shape.y) && z < C(vol.shape.z)))
    return T(0);
  const C fx = hdm::floor_(x), fy = hdm::floor_(y), fz = hdm::floor_(z);
  const index_t x0 = static_cast<index_t>(fx), y0 = static_cast<index_t>(fy), z0 = static_cast<index_t>(fz);
  C wx[2], wy[2], wz[2];
  linear_weights(x - fx, wx);
  linear_weights(y - fy, wy);
  linear_weights(z - fz, wz);
  const bool inside = x0 >= 0 && y0 >= 0 && z0 >= 0 && x0 + 1 < vol.shape.x && y0 + 1 < vol.shape.y &&
                      z0 + 1 < vol.shape.z;
  C acc = 0;
  for (int k = 0; k < 2; ++k)
    for (int j = 0; j < 2; ++j) {
      const C wjk = wy[j] * wz[k];
      for (int i = 0; i < 2; ++i) {
        const T s = inside ? vol(x0 + i, y0 + j, z0 + k, n) : sample_or_zero(vol, x0 + i, y0 + j, z0 + k, n);
        acc += wx[i] * wjk * static_cast<C>(s);
      }
    }
  return static_cast<T>(acc);
}

} // namespace frost::geom
