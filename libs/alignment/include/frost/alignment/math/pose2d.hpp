#pragma once
/// @file pose2d.hpp
/// @brief In-plane poses [M | t] (2x3 affine) in the convention of docs/align_significant.md#conventions,
/// shared by the CPU loops and the CUDA kernels (FROST_HD, float).
///
/// R(θ) = [[cos θ, sin θ], [−sin θ, cos θ]] (Xmipp `rotation2DMatrix`, θ in degrees). A pose acts
/// on centred coordinates, q' = M q + t; warping an image by A moves a feature at q to A q.
/// Poses are composed on the left (A ← T(d)·A, A ← R(θ)·A), so a rotation update also rotates
/// the translation already in A: rotations are always about the image centre (step 6 of
/// docs/align_significant.md#rotation-step).
#include <math.h>

#include "frost/core/hd.hpp"

namespace frost::align {

/// A 2-D affine transform [[a00, a01, a02], [a10, a11, a12], [0, 0, 1]].
struct Pose2 {
  float a00 = 1, a01 = 0, a02 = 0;
  float a10 = 0, a11 = 1, a12 = 0;
};

FROST_HD inline Pose2 pose_identity() { return Pose2{}; }

/// T(d): translation by (dx, dy).
FROST_HD inline Pose2 pose_translation(float dx, float dy) {
  Pose2 p;
  p.a02 = dx;
  p.a12 = dy;
  return p;
}

/// R(θ) with θ in degrees (computed in double on the host and float on the device would differ
/// in the last bits; both paths use float sin/cos of the float angle).
FROST_HD inline Pose2 pose_rotation(float deg) {
  const float a = deg * 0.017453292519943295f;
  const float c = cosf(a), s = sinf(a);
  Pose2 p;
  p.a00 = c;
  p.a01 = s;
  p.a10 = -s;
  p.a11 = c;
  return p;
}

/// L · R (apply R first, then L).
FROST_HD inline Pose2 pose_compose(const Pose2& l, const Pose2& r) {
  Pose2 p;
  p.a00 = l.a00 * r.a00 + l.a01 * r.a10;
  p.a01 = l.a00 * r.a01 + l.a01 * r.a11;
  p.a02 = l.a00 * r.a02 + l.a01 * r.a12 + l.a02;
  p.a10 = l.a10 * r.a00 + l.a11 * r.a10;
  p.a11 = l.a10 * r.a01 + l.a11 * r.a11;
  p.a12 = l.a10 * r.a02 + l.a11 * r.a12 + l.a12;
  return p;
}

/// The inverse transform (the 2x2 block must be invertible; poses here are rotations).
FROST_HD inline Pose2 pose_inverse(const Pose2& a) {
  const float det = a.a00 * a.a11 - a.a01 * a.a10;
  const float inv = 1.0f / det;
  Pose2 p;
  p.a00 = a.a11 * inv;
  p.a01 = -a.a01 * inv;
  p.a10 = -a.a10 * inv;
  p.a11 = a.a00 * inv;
  p.a02 = -(p.a00 * a.a02 + p.a01 * a.a12);
  p.a12 = -(p.a10 * a.a02 + p.a11 * a.a12);
  return p;
}

/// The metadata values of a pose (Xmipp `fillRow`, docs/align_significant.md#conventions): with B =
/// A⁻¹, ψ = atan2(b01, b00) in (−180, 180], shiftX = −b02, shiftY = −b12, flip = det(B) < 0.
struct PoseParameters {
  float psi = 0, shift_x = 0, shift_y = 0;
  bool flip = false;
};

FROST_HD inline PoseParameters pose_parameters(const Pose2& a) {
  const Pose2 b = pose_inverse(a);
  PoseParameters out;
  out.psi = atan2f(b.a01, b.a00) * 57.29577951308232f;
  if (out.psi <= -180.0f) out.psi += 360.0f;
  out.shift_x = -b.a02;
  out.shift_y = -b.a12;
  out.flip = b.a00 * b.a11 - b.a01 * b.a10 < 0;
  return out;
}

} // namespace frost::align
