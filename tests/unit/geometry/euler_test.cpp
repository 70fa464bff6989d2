// ZYZ Euler angles <-> matrices in the Xmipp/RELION convention (docs/conventions.md#euler-angles,
// test U1), angular distances.
#include <algorithm>
#include <cmath>
#include <random>

#include "frost/geometry/euler.hpp"
#include "frost/test/support.hpp"

namespace frost::geom {
namespace {

struct RandomAngles {
  std::mt19937 rng{12345};
  std::uniform_real_distribution<double> rot{-180.0, 180.0}, tilt{0.0, 180.0};
  EulerAngles next() { return {rot(rng), tilt(rng), rot(rng)}; }
};

void expect_matrix_near(const Mat3d& a, const Mat3d& b, double tol) {
  EXPECT_LE(max_abs_diff(a, b), tol);
}

TEST(Euler, ZeroAnglesGiveIdentity) {
  expect_matrix_near(euler_to_matrix(EulerAngles{0, 0, 0}), Mat3d::identity(), 0.0);
}

TEST(Euler, ElementFormulasEqualTheProductOfTheThreeFactors) {
  RandomAngles ra;
  for (int i = 0; i < 200; ++i) {
    const EulerAngles e = ra.next();
    const Mat3d product = rotation_z(e.psi) * rotation_y(e.tilt) * rotation_z(e.rot);
    expect_matrix_near(euler_to_matrix(e), product, 1e-14);
  }
}

TEST(Euler, HandCaseRot90) {
  // R_z(90) rotates the frame: volume +x lands on image −y, volume +y on image +x.
  Mat3d expected;
  expected.m[0][1] = 1;
  expected.m[1][0] = -1;
  expected.m[2][2] = 1;
  expect_matrix_near(euler_to_matrix(EulerAngles{90, 0, 0}), expected, 1e-15);
  // psi alone is the same in-plane rotation (it acts after the tilt).
  expect_matrix_near(euler_to_matrix(EulerAngles{0, 0, 90}), expected, 1e-15);
  const Vec3d img = euler_to_matrix(EulerAngles{90, 0, 0}) * Vec3d{1, 0, 0};
  EXPECT_NEAR(img.x, 0.0, 1e-15);
  EXPECT_NEAR(img.y, -1.0, 1e-15);
}

TEST(Euler, HandCaseTilt90) {
  // R_y(90): the projection direction (row 3) becomes +x; volume +z maps to image −x.
  Mat3d expected;
  expected.m[0][2] = -1;
  expected.m[1][1] = 1;
  expected.m[2][0] = 1;
  expect_matrix_near(euler_to_matrix(EulerAngles{0, 90, 0}), expected, 1e-15);
}

TEST(Euler, OrthonormalWithUnitDeterminant) {
  RandomAngles ra;
  for (int i = 0; i < 1000; ++i) {
    const Mat3d A = euler_to_matrix(ra.next());
    expect_matrix_near(A * A.transposed(), Mat3d::identity(), 1e-12);
    EXPECT_NEAR(A.determinant(), 1.0, 1e-12);
  }
}

TEST(Euler, ThirdRowIsTheProjectionDirection) {
  RandomAngles ra;
  for (int i = 0; i < 100; ++i) {
    const EulerAngles e = ra.next();
    const Vec3d d = projection_direction(e.rot, e.tilt);
    const Vec3d r = euler_to_matrix(e).row(2);
    EXPECT_NEAR(d.x, r.x, 1e-15);
    EXPECT_NEAR(d.y, r.y, 1e-15);
    EXPECT_NEAR(d.z, r.z, 1e-15);
  }
}

TEST(Euler, RoundTripAnglesMatrixAnglesMatrix) {
  RandomAngles ra;
  for (int i = 0; i < 1000; ++i) {
    const EulerAngles e = ra.next();
    const Mat3d A = euler_to_matrix(e);
    const EulerAngles back = matrix_to_euler(A);
    expect_matrix_near(euler_to_matrix(back), A, 1e-12);
    // Away from the gimbal cases the angles themselves come back (canonical ranges).
    EXPECT_NEAR(back.tilt, e.tilt, 1e-9);
    EXPECT_NEAR(wrap_angle_deg(back.rot - e.rot), 0.0, 1e-9);
    EXPECT_NEAR(wrap_angle_deg(back.psi - e.psi), 0.0, 1e-9);
  }
}

TEST(Euler, NegativeTiltIsTheSameOrientationAsRotPlus180) {
  // (rot, −tilt, psi) = (rot + 180, tilt, psi + 180): matrix_to_euler returns tilt >= 0.
  const Mat3d A = euler_to_matrix(EulerAngles{20, -35, 50});
  expect_matrix_near(A, euler_to_matrix(EulerAngles{200, 35, 230}), 1e-14);
  const EulerAngles e = matrix_to_euler(A);
  EXPECT_NEAR(e.rot, -160.0, 1e-10);
  EXPECT_NEAR(e.tilt, 35.0, 1e-10);
  EXPECT_NEAR(e.psi, -130.0, 1e-10);
}

TEST(Euler, GimbalTiltZeroPutsTheInPlaneAngleInPsi) {
  // tilt = 0: A = R_z(rot + psi); only the sum is defined.
  const EulerAngles e = matrix_to_euler(euler_to_matrix(EulerAngles{30, 0, 40}));
  EXPECT_EQ(e.rot, 0.0);
  EXPECT_EQ(e.tilt, 0.0);
  EXPECT_NEAR(e.psi, 70.0, 1e-12);
}

TEST(Euler, GimbalTilt180PutsTheInPlaneAngleInPsi) {
  // tilt = 180: A = R_z(psi)·R_y(180)·R_z(rot) depends on psi − rot only.
  const Mat3d A = euler_to_matrix(EulerAngles{30, 180, 40});
  const EulerAngles e = matrix_to_euler(A);
  EXPECT_EQ(e.rot, 0.0);
  EXPECT_EQ(e.tilt, 180.0);
  EXPECT_NEAR(e.psi, 10.0, 1e-12);
  expect_matrix_near(euler_to_matrix(e), A, 1e-15);
}

TEST(Euler, NearGimbalRoundTripsStayAccurate) {
  // psi is solved from the chosen (rot, tilt), so tiny sin(tilt) does not cost precision; below
  // |sin tilt| = 1e-12 the gimbal branch rounds tilt to 0/180, an error of at most 1e-12.
  for (double tilt : {1e-14, 1e-11, 1e-7, 1e-4, 180.0 - 1e-14, 180.0 - 1e-11, 180.0 - 1e-7, 180.0 - 1e-4}) {
    for (double rot : {-170.0, -10.0, 33.0, 125.0}) {
      const Mat3d A = euler_to_matrix(EulerAngles{rot, tilt, 77.0});
      expect_matrix_near(euler_to_matrix(matrix_to_euler(A)), A, 1e-12);
    }
  }
}

TEST(Euler, Composition) {
  // In-plane rotations add; psi acts after (rot, tilt); the inverse reverses the angles.
  expect_matrix_near(euler_to_matrix(EulerAngles{25, 0, 0}) * euler_to_matrix(EulerAngles{40, 0, 0}),
                     euler_to_matrix(EulerAngles{65, 0, 0}), 1e-15);
  RandomAngles ra;
  for (int i = 0; i < 100; ++i) {
    const EulerAngles e = ra.next();
    expect_matrix_near(euler_to_matrix(EulerAngles{0, 0, e.psi}) * euler_to_matrix(EulerAngles{e.rot, e.tilt, 0}),
                       euler_to_matrix(e), 1e-14);
    expect_matrix_near(euler_to_matrix(e).transposed(), euler_to_matrix(EulerAngles{-e.psi, -e.tilt, -e.rot}),
                       1e-14);
  }
}

TEST(Euler, FloatInstantiationMatchesDouble) {
  const Mat3f Af = euler_to_matrix<float>(12.5f, 71.f, -140.f);
  const Mat3d Ad = euler_to_matrix<double>(12.5, 71.0, -140.0);
  EXPECT_LE(max_abs_diff(Af.cast<double>(), Ad), 1e-6);
}

TEST(AngularDistance, RotationAngleOfTheRelativePose) {
  const EulerAngles id{0, 0, 0};
  EXPECT_NEAR(rotation_distance_deg(id, id), 0.0, 1e-12);
  EXPECT_NEAR(rotation_distance_deg(id, EulerAngles{0, 0, 30}), 30.0, 1e-12);
  EXPECT_NEAR(rotation_distance_deg(id, EulerAngles{0, 37, 0}), 37.0, 1e-12);
  EXPECT_NEAR(rotation_distance_deg(id, EulerAngles{0, 180, 0}), 180.0, 1e-12);
  EXPECT_NEAR(rotation_distance_deg(id, EulerAngles{0, 1e-6, 0}), 1e-6, 1e-15);  // no acos precision loss
  RandomAngles ra;
  for (int i = 0; i < 100; ++i) {
    const EulerAngles a = ra.next(), b = ra.next();
    const double d = rotation_distance_deg(a, b);
    EXPECT_NEAR(d, rotation_distance_deg(b, a), 1e-10);
    const Mat3d R = euler_to_matrix(a) * euler_to_matrix(b).transposed();
    EXPECT_NEAR(d, std::acos(std::clamp((R.trace() - 1.0) / 2.0, -1.0, 1.0)) * 180.0 / hdm::kPi, 1e-6);
  }
}

TEST(AngularDistance, DirectionDistanceIgnoresPsi) {
  EXPECT_NEAR(direction_distance_deg(EulerAngles{10, 20, 0}, EulerAngles{10, 20, 150}), 0.0, 1e-12);
  EXPECT_NEAR(direction_distance_deg(EulerAngles{10, 20, 0}, EulerAngles{10, 50, 0}), 30.0, 1e-12);
  EXPECT_NEAR(direction_distance_deg(EulerAngles{0, 90, 0}, EulerAngles{90, 90, 0}), 90.0, 1e-12);
}

TEST(Euler, WrapAngle) {
  EXPECT_DOUBLE_EQ(wrap_angle_deg(190.0), -170.0);
  EXPECT_DOUBLE_EQ(wrap_angle_deg(-180.0), 180.0);
  EXPECT_DOUBLE_EQ(wrap_angle_deg(180.0), 180.0);
  EXPECT_DOUBLE_EQ(wrap_angle_deg(720.5), 0.5);
}

} // namespace
} // namespace frost::geom
