// Real-space projector: exact z sums for the identity pose, the sign of R_y through tilt = 90,
// psi as an in-plane rotation, image position of an off-centre blob = (A·r)_xy + n/2, shift
// moves the content by +s, output boxes larger than the volume stay centred, and rays clipped to
// the volume give the full sum bit for bit.
#include <cmath>
#include <vector>

#include "frost/geometry/crop_pad.hpp"
#include "frost/geometry/projection.hpp"
#include "frost/test/support.hpp"

namespace frost::geom {
namespace {

Image<float> random_volume(Shape s, std::uint32_t seed) {
  Image<float> v(s);
  const auto f = test::random_floats(static_cast<std::size_t>(s.total()), seed, 0.f, 1.f);
  for (index_t i = 0; i < s.total(); ++i) v[i] = f[static_cast<std::size_t>(i)];
  return v;
}

double max_abs(const Image<float>& a) {
  double m = 0;
  for (float v : a) m = std::max(m, std::fabs(double(v)));
  return m;
}

TEST(Projection, IdentityPoseIsTheSumAlongZ) {
  for (const Shape s : {Shape::volume(8, 8, 8), Shape::volume(7, 9, 6)}) {
    const Image<float> vol = random_volume(s, 1);
    const Image<float> p = project_real_space(vol.cview(), EulerAngles{0, 0, 0});
    ASSERT_EQ(p.shape(), Shape::image(s.x, s.y));
    for (index_t y = 0; y < s.y; ++y)
      for (index_t x = 0; x < s.x; ++x) {
        double sum = 0;
        for (index_t z = 0; z < s.z; ++z) sum += vol(x, y, z);
        EXPECT_NEAR(p(x, y), sum, 1e-5) << to_string(s);
      }
  }
}

TEST(Projection, Tilt90LooksAlongPlusXAndMapsZToMinusImageX) {
  // A(0, 90, 0) = [[0, 0, −1], [0, 1, 0], [1, 0, 0]]: image x = −r_z, image y = r_y.
  const index_t n = 9, c = n / 2;
  const Image<float> vol = random_volume(Shape::volume(n, n, n), 2);
  const Image<float> p = project_real_space(vol.cview(), EulerAngles{0, 90, 0});
  for (index_t j = 0; j < n; ++j)
    for (index_t i = 0; i < n; ++i) {
      double sum = 0;
      for (index_t x = 0; x < n; ++x) sum += vol(x, j, 2 * c - i);
      EXPECT_NEAR(p(i, j), sum, 1e-4);
    }
}

TEST(Projection, PsiIsAnInPlaneRotationOfTheImage) {
  // A(rot, tilt, 90) = R_z(90)·A(rot, tilt, 0): image (x, y) of psi 0 moves to (y, −x), so
  // P_90(i, j) = P_0(2c − j, i) for an odd box.
  const index_t n = 15, c = n / 2;
  const Image<float> vol = random_volume(Shape::volume(n, n, n), 3);
  const Image<float> p0 = project_real_space(vol.cview(), EulerAngles{35, 62, 0});
  const Image<float> p90 = project_real_space(vol.cview(), EulerAngles{35, 62, 90});
  const double tol = 1e-5 * max_abs(p0);
  for (index_t j = 0; j < n; ++j)
    for (index_t i = 0; i < n; ++i) EXPECT_NEAR(p90(i, j), p0(2 * c - j, i), tol);
}

struct Centroid {
  double x, y, mass;
};
Centroid centroid(const Image<float>& p) {
  double sx = 0, sy = 0, m = 0;
  for (index_t y = 0; y < p.shape().y; ++y)
    for (index_t x = 0; x < p.shape().x; ++x) {
      sx += p(x, y) * double(x);
      sy += p(x, y) * double(y);
      m += p(x, y);
    }
  return {sx / m, sy / m, m};
}

TEST(Projection, BlobLandsAtAtimesRAndShiftMovesContentByPlusS) {
  // Gaussian blob (sigma 1.5 voxels) at r0 relative to the centre n/2 of an even box.
  const index_t n = 32, c = n / 2;
  const Vec3d r0{5, -3, 7};
  Image<float> vol(Shape::volume(n, n, n));
  double mass = 0;
  for (index_t z = 0; z < n; ++z)
    for (index_t y = 0; y < n; ++y)
      for (index_t x = 0; x < n; ++x) {
        const double dx = double(x - c) - r0.x, dy = double(y - c) - r0.y, dz = double(z - c) - r0.z;
        vol(x, y, z) = static_cast<float>(std::exp(-(dx * dx + dy * dy + dz * dz) / (2 * 1.5 * 1.5)));
        mass += vol(x, y, z);
      }
  for (const EulerAngles e : {EulerAngles{0, 0, 0}, EulerAngles{30, 50, 20}, EulerAngles{-120, 140, -75},
                              EulerAngles{200, 90, 10}}) {
    const Vec3d q = euler_to_matrix(e) * r0;
    const Centroid cen = centroid(project_real_space(vol.cview(), e));
    EXPECT_NEAR(cen.x - c, q.x, 0.02) << e.rot << "," << e.tilt << "," << e.psi;
    EXPECT_NEAR(cen.y - c, q.y, 0.02);
    EXPECT_NEAR(cen.mass, mass, 1e-2 * mass);  // line integral with unit step keeps the mass
    const Centroid moved = centroid(project_real_space(vol.cview(), e, 2.5, -1.25));
    EXPECT_NEAR(moved.x - cen.x, 2.5, 0.02);
    EXPECT_NEAR(moved.y - cen.y, -1.25, 0.02);
  }
}

TEST(Projection, LargerOutputBoxStaysCentred) {
  // Identity-pose projection into a 13x12 image = centred pad of the 8x9 projection.
  const Image<float> vol = random_volume(Shape::volume(8, 9, 5), 4);
  const Image<float> small = project_real_space(vol.cview(), EulerAngles{0, 0, 0});
  const Image<float> big = project_real_space(vol.cview(), EulerAngles{0, 0, 0}, 0.0, 0.0, 13, 12);
  const Image<float> padded = crop_pad<float>(small.cview(), 13, 12);
  for (index_t i = 0; i < big.size(); ++i) EXPECT_NEAR(big[i], padded[i], 1e-5);
}


// The ray is walked only where its samples can be inside the volume: the sum over every step
// t = -L..L (the terms outside are exact zeros) is the same bits, for general poses, poses along
// the axes (direction components 0), a diagonal, odd and non-cubic boxes, and rays off the volume.
TEST(Projection, ClippedRaysGiveTheFullSumBitForBit) {
  for (const Shape s : {Shape::volume(16, 16, 16), Shape::volume(15, 15, 15), Shape::volume(12, 9, 14)}) {
    const Image<float> v = random_volume(s, 7);
    const index_t L = projection_half_length(s);
    const EulerAngles poses[] = {{0, 0, 0}, {90, 90, 0}, {0, 90, 90}, {33.3, 71.2, -12.5}, {45, 54.7356, 0},
                                 {-170, 123.4, 80.1}, {12, 0.000001, 3}};
    for (const EulerAngles& pose : poses) {
      const Mat3d At = euler_to_matrix(pose).transposed();
      for (double y = -14.5; y <= 14.5; y += 0.75)
        for (double x = -14.5; x <= 14.5; x += 0.75) {
          const double cx = s.x / 2, cy = s.y / 2, cz = s.z / 2;
          const double bx = At.m[0][0] * x + At.m[0][1] * y + cx, by = At.m[1][0] * x + At.m[1][1] * y + cy,
                       bz = At.m[2][0] * x + At.m[2][1] * y + cz;
          double full = 0;
          for (index_t k = -L; k <= L; ++k) {
            const double t = static_cast<double>(k);
            full += static_cast<double>(trilinear(v.cview(), bx + t * At.m[0][2], by + t * At.m[1][2], bz + t * At.m[2][2]));
          }
          const double clipped = project_ray(v.cview(), At, x, y, L);
          ASSERT_EQ(clipped, full) << "pose " << pose.rot << " " << pose.tilt << " " << pose.psi << " at " << x << ", " << y;
        }
    }
  }
}

} // namespace
} // namespace frost::geom
