#pragma once
/// @file projection.hpp
/// @brief Real-space projection of a volume (line integrals with trilinear interpolation).
///
/// Model (docs/conventions.md#euler-angles): the image of V at pose A = A(rot, tilt, psi) is
///     P(x, y) = ∫ V(Aᵀ·(x, y, t)ᵀ) dt,
/// i.e. a volume point r lands on image coordinates (A·r)_x, (A·r)_y. Coordinates are centred
/// with the RELION/Xmipp convention: voxel (i, j, k) is r = (i − nx/2, j − ny/2, k − nz/2) and
/// pixel (i, j) is (i − w/2, j − h/2), integer division, for even and odd sizes.
///
/// Shift: (sx, sy) moves the projected content by +s pixels, P_s(x) = P(x − s). A RELION/Xmipp
/// stored shift (rlnOriginX/Y px = rlnOriginXAngst/YAngst ÷ pixel size = Xmipp shiftX/Y) is the
/// translation that *centres* the experimental image (docs/conventions.md#particles), so the
/// image predicted from a STAR row is project(…, −originX, −originY).
/// relion_projection_test.cpp pins model, centre and sign against relion_project output.
///
/// The integral is a sum of trilinear samples at t = −L, …, L (step 1 voxel, L = half the volume
/// diagonal + 1): for the identity pose the samples fall on voxel centres and P is the exact
/// sum along z.
#include "frost/core/image.hpp"
#include "frost/geometry/euler.hpp"
#include "frost/geometry/interpolation.hpp"

namespace frost::geom {

/// Half length L (in voxels) of the ray that covers a volume of this shape from its centre.
FROST_HD inline index_t projection_half_length(const Shape& vol) {
  const double d2 = static_cast<double>(vol.x * vol.x + vol.y * vol.y + vol.z * vol.z);
  return static_cast<index_t>(hdm::sqrt_(d2) * 0.5) + 2;
}

/// The t where low < b + t·d < high along one axis, as [a, c]; false (and nothing set) for an axis
/// the ray nearly follows across (|d| < 1e-6), where the rounding of b + t·d could move a sample
/// in or out far from such a bound.
template <class C>
FROST_HD inline bool ray_axis_span(C b, C d, C low, C high, C& a, C& c) {
  if (!(d > C(1e-6) || d < C(-1e-6))) return false;
  a = (low - b) / d;
  c = (high - b) / d;
  if (a > c) {
    const C swap = a;
    a = c;
    c = swap;
  }
  return true;
}

/// Narrows [lo, hi] to the t where b + t·d lies in (−1, n), the only place a trilinear sample
/// along that axis can be non-zero; false when no t is left. An axis with |d| < 1e-6 is not used:
/// the other axes (|d| ≥ 1/√3 for one of them) bound t.
template <class C>
FROST_HD inline bool clip_ray_axis(C b, C d, index_t n, C& lo, C& hi) {
  C a, c;
  if (ray_axis_span(b, d, C(-1), static_cast<C>(n), a, c)) {
    lo = a > lo ? a : lo;
    hi = c < hi ? c : hi;
  }
  return lo <= hi;
}

/// trilinear() where every neighbour is known to be inside the volume (floor(x) in [0, nx − 2], and
/// so on): the same products and sums in the same order, without the bounds tests.
template <class T, class C>
FROST_HD inline T trilinear_inside(View<const T> vol, C x, C y, C z) {
  const C fx = hdm::floor_(x), fy = hdm::floor_(y), fz = hdm::floor_(z);
  C wx[2], wy[2], wz[2];
  linear_weights(x - fx, wx);
  linear_weights(y - fy, wy);
  linear_weights(z - fz, wz);
  const index_t sx = vol.shape.x, sxy = vol.shape.x * vol.shape.y;
  const T* p = vol.data + static_cast<index_t>(fz) * sxy + static_cast<index_t>(fy) * sx + static_cast<index_t>(fx);
  C acc = 0;
  for (int k = 0; k < 2; ++k)
    for (int j = 0; j < 2; ++j) {
      const C wjk = wy[j] * wz[k];
      const T* row = p + k * sxy + j * sx;
      for (int i = 0; i < 2; ++i) acc += wx[i] * wjk * static_cast<C>(row[i]);
    }
  return static_cast<T>(acc);
}

/// Narrows [lo, hi] to the t where b + t·d lies in [0, n − 1) with a margin, where all eight
/// neighbours of a sample are inside; an axis with |d| < 1e-6 keeps its range when b stays in
/// there over every step of the ray (`half_length`), else empties it.
template <class C>
FROST_HD inline void interior_ray_axis(C b, C d, index_t n, index_t half_length, C& lo, C& hi) {
  C a, c;
  if (ray_axis_span(b, d, C(0), static_cast<C>(n - 1), a, c)) {
    lo = a + C(1) > lo ? a + C(1) : lo;
    hi = c - C(1) < hi ? c - C(1) : hi;
  } else {
    const C drift = static_cast<C>(half_length + 1) * C(1e-6) + C(1e-9);
    if (!(b - drift >= C(0) && b + drift < static_cast<C>(n - 1))) hi = lo - C(1);
  }
}

/// One ray: Σ_{t=−L..L} trilinear(V, Aᵀ·(x, y, t) + c), with (x, y) centred image coordinates
/// (shift already removed), At = Aᵀ and c = (nx/2, ny/2, nz/2). Only the steps whose sample can
/// be inside the volume are taken (one more at each end against rounding): the others add exact
/// zeros, so the sum is the full one, bit for bit, at about half the steps. Steps a margin away
/// from the volume's faces sample with trilinear_inside, the same arithmetic without bounds tests.
template <class T, class C>
FROST_HD inline C project_ray(View<const T> vol, const Mat3<C>& At, C x, C y, index_t half_length) {
  const C cx = static_cast<C>(vol.shape.x / 2), cy = static_cast<C>(vol.shape.y / 2),
          cz = static_cast<C>(vol.shape.z / 2);
  // r(t) = base + t·dir, dir = third column of Aᵀ = projection direction.
  const C bx = At.m[0][0] * x + At.m[0][1] * y + cx;
  const C by = At.m[1][0] * x + At.m[1][1] * y + cy;
  const C bz = At.m[2][0] * x + At.m[2][1] * y + cz;
  const C dx = At.m[0][2], dy = At.m[1][2], dz = At.m[2][2];
  C lo = static_cast<C>(-half_length), hi = static_cast<C>(half_length);
  if (!clip_ray_axis(bx, dx, vol.shape.x, lo, hi) || !clip_ray_axis(by, dy, vol.shape.y, lo, hi) ||
      !clip_ray_axis(bz, dz, vol.shape.z, lo, hi))
    return C(0);
  index_t first = static_cast<index_t>(hdm::floor_(lo)) - 1, last = static_cast<index_t>(hdm::floor_(hi)) + 1;
  first = first < -half_length ? -half_length : first;
  last = last > half_length ? half_length : last;
  // The interior steps [in_first, in_last] within [first, last]; empty as [last + 1, last].
  C ilo = static_cast<C>(first), ihi = static_cast<C>(last);
  interior_ray_axis(bx, dx, vol.shape.x, half_length, ilo, ihi);
  interior_ray_axis(by, dy, vol.shape.y, half_length, ilo, ihi);
  interior_ray_axis(bz, dz, vol.shape.z, half_length, ilo, ihi);
  index_t in_first = last + 1, in_last = last;
  if (ilo <= ihi) {
    in_first = static_cast<index_t>(hdm::floor_(ilo)) + 1;
    in_last = static_cast<index_t>(hdm::floor_(ihi));
    if (in_first > in_last) in_first = last + 1, in_last = last;
  }
  C acc = 0;
  const auto at = [&](index_t k, bool inside) {
    const C t = static_cast<C>(k);
    const C px = bx + t * dx, py = by + t * dy, pz = bz + t * dz;
    acc += static_cast<C>(inside ? trilinear_inside(vol, px, py, pz) : trilinear(vol, px, py, pz));
  };
  for (index_t k = first; k < in_first; ++k) at(k, false);
  for (index_t k = in_first; k <= in_last; ++k) at(k, true);
  for (index_t k = in_last + 1; k <= last; ++k) at(k, false);
  return acc;
}

/// Projects volume item 0 of `volume` at pose A into every pixel of the 2-D `out` (any size;
/// output n must be 1), content shifted by (shift_x, shift_y) pixels.
void project_real_space(View<const float> volume, const Mat3d& A, double shift_x, double shift_y, View<float> out);

/// Same with Euler angles, into a new image of size (out_nx, out_ny); 0 means the volume's x/y size.
Image<float> project_real_space(View<const float> volume, const EulerAngles& pose, double shift_x = 0.0,
                                double shift_y = 0.0, index_t out_nx = 0, index_t out_ny = 0);

} // namespace frost::geom
