#include "frost/geometry/euler.hpp"

#include <cmath>

namespace frost::geom {

namespace {
// Below this |sin tilt| the split of the in-plane angle between rot and psi is not defined by
// A to double precision; matrix_to_euler puts it all in psi (gimbal branch).
constexpr double kGimbalSinTilt = 1e-12;

double deg(double rad) { return rad * 180.0 / hdm::kPi; }
} // namespace

double wrap_angle_deg(double d) {
  double r = std::fmod(d, 360.0);  // (-360, 360)
  if (r <= -180.0) r += 360.0;
  if (r > 180.0) r -= 360.0;
  return r;
}

EulerAngles matrix_to_euler(const Mat3d& A) {
  EulerAngles e;
  // Row 3 = (sb·ca, sb·sa, cb); choosing sb >= 0 gives tilt in [0, 180].
  const double sb = std::hypot(A(2, 0), A(2, 1));
  if (sb < kGimbalSinTilt) {
    e.rot = 0.0;
    e.tilt = A(2, 2) > 0 ? 0.0 : 180.0;
  } else {
    e.rot = deg(std::atan2(A(2, 1), A(2, 0)));
    e.tilt = deg(std::atan2(sb, A(2, 2)));
  }
  // A = R_z(psi)·B with B = R_y(tilt)·R_z(rot), so A·Bᵀ = R_z(psi) = [[cg, sg, ·], [-sg, cg, ·], ·].
  // Solving for psi from the chosen (rot, tilt) keeps angles -> matrix consistent with A even
  // where rot and psi are individually ill-conditioned (small sin tilt).
  const Mat3d B = rotation_y(e.tilt) * rotation_z(e.rot);
  const double c00 = dot(A.row(0), B.row(0));
  const double c01 = dot(A.row(0), B.row(1));
  e.psi = deg(std::atan2(c01, c00));
  e.rot = wrap_angle_deg(e.rot);
  e.psi = wrap_angle_deg(e.psi);
  return e;
}

double rotation_distance_deg(const Mat3d& A, const Mat3d& B) {
  const Mat3d R = A * B.transposed();
  // 2·sin θ = |axis vector of the skew part|, 2·cos θ = trace − 1; atan2 keeps full precision
  // near 0 and 180 degrees where acos would not.
  const double vx = R(2, 1) - R(1, 2), vy = R(0, 2) - R(2, 0), vz = R(1, 0) - R(0, 1);
  return deg(std::atan2(std::sqrt(vx * vx + vy * vy + vz * vz), R.trace() - 1.0));
}

double rotation_distance_deg(const EulerAngles& a, const EulerAngles& b) {
  return rotation_distance_deg(euler_to_matrix(a), euler_to_matrix(b));
}

double direction_distance_deg(const Mat3d& A, const Mat3d& B) {
  const Vec3d u = A.row(2), v = B.row(2);
  const Vec3d c = cross(u, v);
  return deg(std::atan2(std::sqrt(dot(c, c)), dot(u, v)));
}

double direction_distance_deg(const EulerAngles& a, const EulerAngles& b) {
  return direction_distance_deg(euler_to_matrix(a), euler_to_matrix(b));
}

} // namespace frost::geom
