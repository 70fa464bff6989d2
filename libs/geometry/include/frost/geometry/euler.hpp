#pragma once
/// @file euler.hpp
/// @brief ZYZ Euler angles (rot, tilt, psi) in degrees <-> rotation matrices, Xmipp/RELION convention.
///
/// Convention (docs/conventions.md#euler-angles, xmippCore `Euler_angles2matrix`, identical in
/// RELION):  A(rot, tilt, psi) = R_z(psi) · R_y(tilt) · R_z(rot)  with
///
///     R_z(a) = [[ cos a, sin a, 0], [-sin a, cos a, 0], [0, 0, 1]]
///     R_y(b) = [[ cos b, 0, -sin b], [0, 1, 0], [sin b, 0, cos b]]
///
/// (both rotate the *coordinate frame*, hence the signs). Multiplying out, with
/// ca = cos rot, sa = sin rot, cb = cos tilt, sb = sin tilt, cg = cos psi, sg = sin psi:
///
///     A = [[ cg·cb·ca − sg·sa,   cg·cb·sa + sg·ca,  −cg·sb ],
///          [−sg·cb·ca − cg·sa,  −sg·cb·sa + cg·ca,   sg·sb ],
///          [    sb·ca,               sb·sa,            cb  ]]
///
/// Row 3 is the projection direction (sin tilt·cos rot, sin tilt·sin rot, cos tilt). A maps
/// volume coordinates r to image coordinates: the image of V at pose A is
/// P(x, y) = ∫ V(Aᵀ·(x, y, z)ᵀ) dz. Tests (euler_test.cpp) check the element formulas
/// against the explicit product of the three factors, the hand cases rot = 90 and tilt = 90,
/// and the RELION images (relion_projection_test.cpp) pin the direction of Aᵀ.
#include "frost/geometry/hd_math.hpp"
#include "frost/geometry/mat3.hpp"

namespace frost::geom {

/// ZYZ Euler angles in degrees.
struct EulerAngles {
  double rot = 0, tilt = 0, psi = 0;
};

/// R_z(a) in the frame-rotation sign convention above (a in degrees).
template <class T>
FROST_HD inline Mat3<T> rotation_z(T deg) {
  const T a = hdm::deg2rad(deg), c = hdm::cos_(a), s = hdm::sin_(a);
  Mat3<T> r = Mat3<T>::identity();
  r.m[0][0] = c;
  r.m[0][1] = s;
  r.m[1][0] = -s;
  r.m[1][1] = c;
  return r;
}

/// R_y(b) in the frame-rotation sign convention above (b in degrees).
template <class T>
FROST_HD inline Mat3<T> rotation_y(T deg) {
  const T b = hdm::deg2rad(deg), c = hdm::cos_(b), s = hdm::sin_(b);
  Mat3<T> r = Mat3<T>::identity();
  r.m[0][0] = c;
  r.m[0][2] = -s;
  r.m[2][0] = s;
  r.m[2][2] = c;
  return r;
}

/// A(rot, tilt, psi) = R_z(psi)·R_y(tilt)·R_z(rot), element formulas as in the file comment.
template <class T>
FROST_HD inline Mat3<T> euler_to_matrix(T rot, T tilt, T psi) {
  const T a = hdm::deg2rad(rot), b = hdm::deg2rad(tilt), g = hdm::deg2rad(psi);
  const T ca = hdm::cos_(a), sa = hdm::sin_(a);
  const T cb = hdm::cos_(b), sb = hdm::sin_(b);
  const T cg = hdm::cos_(g), sg = hdm::sin_(g);
  Mat3<T> A;
  A.m[0][0] = cg * cb * ca - sg * sa;
  A.m[0][1] = cg * cb * sa + sg * ca;
  A.m[0][2] = -cg * sb;
  A.m[1][0] = -sg * cb * ca - cg * sa;
  A.m[1][1] = -sg * cb * sa + cg * ca;
  A.m[1][2] = sg * sb;
  A.m[2][0] = sb * ca;
  A.m[2][1] = sb * sa;
  A.m[2][2] = cb;
  return A;
}

inline Mat3d euler_to_matrix(const EulerAngles& e) { return euler_to_matrix<double>(e.rot, e.tilt, e.psi); }

/// Projection direction (third row of A): (sin tilt·cos rot, sin tilt·sin rot, cos tilt).
template <class T>
FROST_HD inline Vec3<T> projection_direction(T rot, T tilt) {
  const T a = hdm::deg2rad(rot), b = hdm::deg2rad(tilt);
  const T sb = hdm::sin_(b);
  return {sb * hdm::cos_(a), sb * hdm::sin_(a), hdm::cos_(b)};
}

/// Angles of a rotation matrix. Output ranges: tilt in [0, 180], rot and psi in (-180, 180].
/// Gimbal lock (|sin tilt| below ~1e-12, i.e. tilt 0 or 180) only fixes rot + psi (tilt 0) or
/// psi − rot (tilt 180); rot is then set to 0 and psi carries the in-plane angle. In every case
/// psi is computed from A and the already chosen (rot, tilt), so angles → matrix reproduces A to
/// rounding even close to the gimbal cases. `A` must be a rotation (orthonormal, det +1).
EulerAngles matrix_to_euler(const Mat3d& A);

/// Angle (degrees, [0, 180]) of the rotation A·Bᵀ that takes orientation B to A: the full
/// 3-D angular distance between two poses (psi included).
double rotation_distance_deg(const Mat3d& A, const Mat3d& B);
double rotation_distance_deg(const EulerAngles& a, const EulerAngles& b);

/// Angle (degrees, [0, 180]) between the projection directions (third rows) of A and B;
/// ignores psi.
double direction_distance_deg(const Mat3d& A, const Mat3d& B);
double direction_distance_deg(const EulerAngles& a, const EulerAngles& b);

/// Maps an angle in degrees to (-180, 180].
double wrap_angle_deg(double deg);

} // namespace frost::geom
