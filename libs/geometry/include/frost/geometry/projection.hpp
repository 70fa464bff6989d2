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

/// Narrows [lo, hi] to the t where b + t·d lies in (−1, n), the only place a trilinear sample
/// along that axis can be non-zero; false when no t is left. An axis the ray nearly follows across
/// (|d| < 1e-6) is not used: there the rounding of b + t·d could move a sample in or out of the
/// volume far from the computed bound, and the other axes (|d| ≥ 1/√3 for one of them) bound t.
template <class C>
FROST_HD inline bool clip_ray_axis(C b, C d, index_t n, C& lo, C& hi) {
  if (d > C(1e-6) || d < C(-1e-6)) {
    C a = (C(-1) - b) / d, c = (static_cast<C>(n) - b) / d;
    if (a > c) {
      const C swap = a;
      a = c;
      c = swap;
    }
    lo = a > lo ? a : lo;
    hi = c < hi ? c : hi;
  }
  return lo <= hi;
}

/// One ray: Σ_{t=−L..L} trilinear(V, Aᵀ·(x, y, t) + c), with (x, y) centred image coordinates
/// (shift already removed), At = Aᵀ and c = (nx/2, ny/2, nz/2). Only the steps whose sample can
/// be inside the volume are taken (one more at each end against rounding): the others add exact
/// zeros, so the sum is the full one, bit for bit, at about half the steps.
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
  const index_t first = static_cast<index_t>(hdm::floor_(lo)) - 1, last = static_cast<index_t>(hdm::floor_(hi)) + 1;
  C acc = 0;
  for (index_t k = first < -half_length ? -half_length : first; k <= (last > half_length ? half_length : last); ++k) {
    const C t = static_cast<C>(k);
    acc += static_cast<C>(trilinear(vol, bx + t * dx, by + t * dy, bz + t * dz));
  }
  return acc;
}

/// Projects volume item 0 of `volume` at pose A into every pixel of the 2-D `out` (any size;
/// output n must be 1), content shifted by (shift_x, shift_y) pixels.
void project_real_space(View<const float> volume, const Mat3d& A, double shift_x, double shift_y, View<float> out);

/// Same with Euler angles, into a new image of size (out_nx, out_ny); 0 means the volume's x/y size.
Image<float> project_real_space(View<const float> volume, const EulerAngles& pose, double shift_x = 0.0,
                                double shift_y = 0.0, index_t out_nx = 0, index_t out_ny = 0);

} // namespace frost::geom
