// Tests of the Kaiser-Bessel blob (docs/reconstruct_fourier.md#the-blob-kernel; U2 in
// docs/reconstruct_fourier.md#unit-tests).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

#include "frost/reconstruction/blob.hpp"

namespace {

using frost::recon::BlobParams;
using frost::recon::BlobTable;
namespace recon = frost::recon;

constexpr double kPi = 3.14159265358979323846;

double rel(double a, double b) { return std::abs(a - b) / std::abs(b); }

// K^(omega) by Simpson quadrature of 4 pi r^2 K(r) sinc(2 omega r) over [0, a] (double).
double radial_fourier(double omega, const BlobParams& p, int intervals = 20000) {
  const double ima = recon::bessel_i(p.order, p.alpha);
  const double h = p.radius / intervals;
  double sum = 0;
  for (int i = 0; i <= intervals; ++i) {
    const double r = i * h;
    const double x = 2 * kPi * omega * r;
    const double sinc = x == 0 ? 1.0 : std::sin(x) / x;
    const double f = 4 * kPi * r * r * recon::blob_value(r, p, ima) * sinc;
    const double w = (i == 0 || i == intervals) ? 1 : (i % 2 ? 4 : 2);
    sum += w * f;
  }
  return sum * h / 3;
}

TEST(Bessel, KnownValues) {
  EXPECT_LT(rel(recon::bessel_i(0, 1.0), 1.2660658777520082), 1e-14);
  EXPECT_LT(rel(recon::bessel_i(0, 5.0), 27.239871823604442), 1e-14);
  EXPECT_LT(rel(recon::bessel_i(2, 3.0), 2.245212440929951), 1e-14);
  // mpmath, 30 digits
  EXPECT_LT(rel(recon::bessel_i(0, 15.0), 339649.373297913879521701629915), 1e-14);
  EXPECT_LT(rel(recon::bessel_i(2, 15.0), 295899.383701886359957208543215), 1e-14);
  EXPECT_LT(rel(recon::bessel_i(4, 10.0), 1226.49053775949159774137072243), 1e-14);
  EXPECT_EQ(recon::bessel_i(0, 0.0), 1.0);
  EXPECT_EQ(recon::bessel_i(2, 0.0), 0.0);
}

TEST(Bessel, RecurrenceMatchesSeries) {
  double worst = 0;
  for (int m = 0; m <= 4; ++m)
    for (double x = 0.5; x <= 20.0; x += 0.25)
      worst = std::max(worst, rel(recon::bessel_i_recurrence(m, x), recon::bessel_i(m, x)));
  std::printf("[measured] I_m recurrence vs series, m 0..4, x in [0.5, 20]: max rel %.3g\n", worst);
  EXPECT_LT(worst, 1e-7);
}

TEST(Blob, HandValuesOrder0) {
  const BlobParams p; // a 1.9, m 0, alpha 15
  EXPECT_DOUBLE_EQ(p.radius, 1.9);
  EXPECT_EQ(p.order, 0);
  EXPECT_DOUBLE_EQ(p.alpha, 15.0);
  EXPECT_NEAR(recon::blob_value(0.0, p), 1.0, 1e-15);
  // K(a) = I0(0)/I0(15) = 1/I0(15)
  EXPECT_LT(rel(recon::blob_value(p.radius, p), 2.94421270467906375617533702752e-6), 1e-13);
  // K(a/2) = I0(15 sqrt(3/4)) / I0(15)
  EXPECT_LT(rel(recon::blob_value(0.5 * p.radius, p), 0.1442360172059407442397353586), 1e-13);
  EXPECT_EQ(recon::blob_value(p.radius * 1.0001, p), 0.0);
  EXPECT_EQ(recon::blob_value_sq(p.radius * p.radius * 1.0001, p, recon::bessel_i(0, 15)), 0.0);
}

TEST(Blob, HandValuesOrder2) {
  BlobParams p;
  p.order = 2;
  EXPECT_NEAR(recon::blob_value(0.0, p), 1.0, 1e-15);
  EXPECT_EQ(recon::blob_value(p.radius, p), 0.0); // u^2 I2(0) = 0
  // u^2 = 3/4: K = 0.75 * I2(15 sqrt(.75)) / I2(15)
  const double u = std::sqrt(0.75);
  EXPECT_LT(rel(recon::blob_value(0.5 * p.radius, p),
                0.75 * recon::bessel_i(2, 15 * u) / recon::bessel_i(2, 15)), 1e-14);
}

TEST(Blob, Order0IsMonotoneDecreasing) {
  const BlobParams p;
  double prev = recon::blob_value(0.0, p);
  for (int i = 1; i <= 1000; ++i) {
    const double v = recon::blob_value(p.radius * i / 1000.0, p);
    EXPECT_LT(v, prev) << "i=" << i;
    prev = v;
  }
}

TEST(BlobTable, EntryZeroIsIw0AndMonotone) {
  const BlobTable t;
  ASSERT_EQ(t.size(), 10000);
  const double iw0 = 1.0 / recon::blob_fourier(0.0, BlobParams{});
  EXPECT_NEAR(t.values()[0], iw0, 1e-7 * iw0);
  EXPECT_NEAR(t.scale(), iw0, 1e-15 * iw0);
  for (int i = 1; i < t.size(); ++i) ASSERT_LE(t.values()[i], t.values()[i - 1]) << i;
  EXPECT_EQ(t.nearest(1.9f * 1.9f * 1.01f), 0.0f);
}

TEST(BlobTable, AccuracyAgainstDirect) {
  for (int m : {0, 2}) {
    BlobParams p;
    p.order = m;
    const BlobTable t(p);
    const auto acc = recon::measure_table_accuracy(t, 200000, 1e-3);
    std::printf("[measured] table T=10000 m=%d: nearest max rel %.3g (K>=1e-3), max abs/K(0) %.3g;"
                " linear max rel %.3g, max abs/K(0) %.3g\n",
                m, acc.max_rel_nearest, acc.max_abs_nearest, acc.max_rel_linear, acc.max_abs_linear);
    EXPECT_LT(acc.max_abs_nearest, 1e-3);
    EXPECT_LT(acc.max_rel_nearest, 1e-2);
    EXPECT_LT(acc.max_abs_linear, 1e-6);
    EXPECT_LT(acc.max_rel_linear, 1e-4);
  }
}

TEST(BlobTable, LatticeSumIsOne) {
  // U2: sum over a 0.05-spaced 3-D lattice of table(d^2) * 0.05^3 = 1 +- 2e-3.
  const BlobTable t;
  const double h = 0.05;
  const int n = static_cast<int>(1.9 / h) + 1;
  double sum = 0;
  for (int z = -n; z <= n; ++z)
    for (int y = -n; y <= n; ++y)
      for (int x = -n; x <= n; ++x) {
        const float d2 = static_cast<float>(h * h * (x * x + y * y + z * z));
        sum += t.nearest(d2);
      }
  sum *= h * h * h;
  std::printf("[measured] lattice sum of normalised table: %.7f\n", sum);
  EXPECT_NEAR(sum, 1.0, 2e-3);
}

TEST(BlobFourier, MatchesRadialQuadrature) {
  double worst = 0;
  for (int m : {0, 2})
    for (double alpha : {10.0, 15.0}) {
      BlobParams p;
      p.order = m;
      p.alpha = alpha;
      for (double w : {0.0, 0.05, 0.1, 0.2, 0.3}) {
        const double a = recon::blob_fourier(w, p), q = radial_fourier(w, p);
        worst = std::max(worst, rel(a, q));
        EXPECT_LT(rel(a, q), 1e-5) << "m=" << m << " alpha=" << alpha << " w=" << w;
      }
    }
  std::printf("[measured] K^ analytic vs radial quadrature, w<=0.3, m{0,2} alpha{10,15}: max rel %.3g\n",
              worst);
}

TEST(BlobFourier, BesselJBranchMatchesQuadrature) {
  // Beyond 2 pi a w > alpha the transform uses J_{3/2+m}; both the short alternating series
  // (-36 <= s < 0) and the closed form (s < -36) are checked, relative to K^(0).
  double worst = 0;
  for (int m : {0, 1, 2, 3, 4}) {
    BlobParams p;
    p.order = m;
    const double k0 = recon::blob_fourier(0.0, p);
    for (double w : {1.2, 1.3, 1.35, 1.5, 2.0, 3.0}) {
      const double a = recon::blob_fourier(w, p), q = radial_fourier(w, p, 40000);
      worst = std::max(worst, std::abs(a - q) / k0);
      EXPECT_LT(std::abs(a - q) / k0, 1e-8) << "m=" << m << " w=" << w;
    }
    // continuity across s = -36 (the switch between the series and the closed form)
    const double w36 = std::sqrt(p.alpha * p.alpha + 36.0) / (2 * kPi * p.radius);
    EXPECT_NEAR(recon::blob_fourier(w36 * (1 - 1e-9), p), recon::blob_fourier(w36 * (1 + 1e-9), p),
                1e-9 * k0);
  }
  std::printf("[measured] K^ J-branch (w 1.2..3, m 0..4) vs quadrature: max |err|/K^(0) %.3g\n", worst);
}

TEST(BlobFourier, ZeroIsTheIntegral) {
  // K^(0) equals the 3-D integral of K; also check order 4 there.
  for (int m = 0; m <= 4; ++m) {
    BlobParams p;
    p.order = m;
    EXPECT_LT(rel(recon::blob_fourier(0.0, p), radial_fourier(0.0, p)), 1e-9) << m;
  }
}

TEST(Gridding, CorrectionDividesByKappa) {
  const BlobParams p;
  const frost::index_t n = 16;
  frost::Image<float> vol(frost::Shape::volume(n, n, n));
  for (auto& v : vol) v = 1.0f;
  const double pad = 32;
  recon::apply_gridding_correction(vol.view(), p, pad);
  EXPECT_NEAR(vol(8, 8, 8), 1.0f, 1e-6);
  const double k0 = radial_fourier(0.0, p);
  // voxel (8+3, 8+4, 8) is at r = 5
  const double kappa = radial_fourier(5.0 / pad, p) / k0;
  EXPECT_LT(rel(vol(11, 12, 8), 1.0 / kappa), 1e-6);
  EXPECT_GT(vol(0, 0, 0), vol(11, 12, 8)); // correction grows towards the corners
  EXPECT_NEAR(recon::gridding_correction(5.0, pad, p, recon::bessel_i(0, 15)), kappa, 1e-7);
}

} // namespace
