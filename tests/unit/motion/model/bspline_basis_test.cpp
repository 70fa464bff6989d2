// Cubic B-spline basis (partition of unity, linear reproduction), BSplineField knot
// spacings and storage order on a hand-computed 3x3x3 example, evaluation of the 4x4x4 terms
// against the sum over every control point.
#include <cmath>
#include <random>

#include "frost/core/error.hpp"
#include "frost/motion/motion_model.hpp"
#include "frost/test/support.hpp"

namespace frost::motion {
namespace {

TEST(BSplineBasis, KnownValues) {
  EXPECT_DOUBLE_EQ(bspline_basis(0.0), 2.0 / 3.0);
  EXPECT_DOUBLE_EQ(bspline_basis(1.0), 1.0 / 6.0);
  EXPECT_DOUBLE_EQ(bspline_basis(-1.0), 1.0 / 6.0);
  EXPECT_DOUBLE_EQ(bspline_basis(0.5), 23.0 / 48.0);
  EXPECT_DOUBLE_EQ(bspline_basis(1.5), 1.0 / 48.0);
  EXPECT_EQ(bspline_basis(2.0), 0.0);
  EXPECT_EQ(bspline_basis(-2.5), 0.0);
}

TEST(BSplineBasis, PartitionOfUnityAndLinearReproduction) {
  std::mt19937 rng(15);
  std::uniform_real_distribution<double> pick(-50.0, 50.0);
  double worst_sum = 0, worst_linear = 0;
  for (int i = 0; i < 10000; ++i) {
    const double u = pick(rng);
    double sum = 0, linear = 0;
    for (int l = static_cast<int>(std::floor(u)) - 3; l <= static_cast<int>(std::floor(u)) + 3; ++l) {
      sum += bspline_basis(u - l);
      linear += l * bspline_basis(u - l);
    }
    worst_sum = std::max(worst_sum, std::abs(sum - 1.0));
    worst_linear = std::max(worst_linear, std::abs(linear - u));
  }
  std::printf("max |sum beta - 1| = %.3g, max |sum l beta - u| = %.3g over 10000 random u\n", worst_sum, worst_linear);
  EXPECT_LT(worst_sum, 1e-6);
  EXPECT_LT(worst_linear, 1e-6);
}

TEST(BSplineField, KnotSpacingsFromExtents) {
  const BSplineField f = BSplineField::make(5, 4, 6, 300.0, 200.0, 30.0);
  EXPECT_EQ(f.hx, 150.0); // 300 / (5 - 3)
  EXPECT_EQ(f.hy, 200.0); // 200 / (4 - 3)
  EXPECT_EQ(f.ht, 10.0);  // 30 / (6 - 3)
  EXPECT_EQ(f.size(), 120);
  EXPECT_EQ(f.cx.size(), 120u);
  EXPECT_EQ(f.cy.size(), 120u);
  EXPECT_THROW(BSplineField::make(2, 4, 6, 300.0, 200.0, 30.0), Error);
  EXPECT_THROW(BSplineField::make(4, 4, 6, 0.0, 200.0, 30.0), Error);
  try {
    BSplineField::make(4, 4, 2, 300.0, 200.0, 30.0);
    FAIL() << "lt = 2 accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::Usage) << e.what();
  }
}

// 3x3x3 grid over a 100 x 80 frame and 10 frames: L = 3 takes the full extent as spacing.
// Storage index (n+1)·9 + (m+1)·3 + (l+1); a single unit coefficient at (n, m, l) = (0, 1, -1) is
// index 15, and at (x, y, t) = (25, 40, 5): u = (0.25, 0.5, 0.5), so the value is
// beta(0.25 + 1)·beta(0.5 - 1)·beta(0.5 - 0) = (0.75³/6)·(23/48)·(23/48) = 4761/294912.
TEST(BSplineField, HandComputed3x3x3) {
  BSplineField f = BSplineField::make(3, 3, 3, 100.0, 80.0, 10.0);
  EXPECT_EQ(f.hx, 100.0);
  EXPECT_EQ(f.hy, 80.0);
  EXPECT_EQ(f.ht, 10.0);
  EXPECT_EQ(f.index(0, 1, -1), 15);
  EXPECT_EQ(f.index(-1, -1, -1), 0);
  EXPECT_EQ(f.index(1, 1, 1), 26);
  EXPECT_EQ(f.index(-1, -1, 0), 1);  // x fastest
  EXPECT_EQ(f.index(-1, 0, -1), 3);  // then y
  EXPECT_EQ(f.index(0, -1, -1), 9);  // time slowest
  f.cx[15] = 1.0;
  f.cy[15] = -2.0;
  const Vec2 v = f.evaluate(25.0, 40.0, 5.0);
  const double expected = 4761.0 / 294912.0;
  std::printf("unit coefficient 15 at (25, 40, 5): %.15g (hand-computed %.15g)\n", v.x, expected);
  EXPECT_NEAR(v.x, expected, 1e-15);
  EXPECT_NEAR(v.y, -2.0 * expected, 1e-15);
  // At the origin coefficient (n, m, l) = (0, 1, -1) weighs beta(0 - 0)·beta(0 - 1)·beta(0 + 1)
  // = (2/3)(1/6)(1/6).
  EXPECT_NEAR(f.evaluate(0, 0, 0).x, (2.0 / 3.0) / 36.0, 1e-15);
  // With L = 3 the basis is incomplete (Xmipp's rule,
  // docs/movie_align.md#the-b-spline-motion-model): constant coefficients do not reproduce the
  // constant away from the origin; with L = 4 they do over the whole frame.
  std::fill(f.cx.begin(), f.cx.end(), 1.5);
  const double incomplete = f.evaluate(100.0, 80.0, 10.0).x;
  BSplineField g = BSplineField::make(4, 4, 4, 100.0, 80.0, 10.0);
  std::fill(g.cx.begin(), g.cx.end(), 1.5);
  const double complete = g.evaluate(100.0, 80.0, 10.0).x;
  std::printf("constant 1.5 at the far corner: L=3 gives %.6f, L=4 gives %.15g\n", incomplete, complete);
  EXPECT_LT(incomplete, 1.4);
  EXPECT_NEAR(complete, 1.5, 1e-14);
}

TEST(BSplineField, FourByFourByFourTermsEqualFullSum) {
  BSplineField f = BSplineField::make(7, 6, 5, 700.0, 480.0, 20.0);
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> c(-3.0, 3.0);
  for (auto& v : f.cx) v = c(rng);
  for (auto& v : f.cy) v = c(rng);
  std::uniform_real_distribution<double> ux(-150.0, 850.0), uy(-100.0, 580.0), ut(-4.0, 24.0);
  double worst = 0;
  for (int i = 0; i < 2000; ++i) {
    // Include points outside the frame and exact knots.
    const double x = i % 10 == 0 ? 100.0 * (i % 7) : ux(rng);
    const double y = i % 10 == 0 ? 160.0 * (i % 4) : uy(rng);
    const double t = i % 10 == 0 ? 10.0 * (i % 3) : ut(rng);
    double sx = 0, sy = 0;
    for (int n = -1; n <= f.lt - 2; ++n)
      for (int m = -1; m <= f.ly - 2; ++m)
        for (int l = -1; l <= f.lx - 2; ++l) {
          const double w = bspline_basis(t / f.ht - n) * bspline_basis(y / f.hy - m) * bspline_basis(x / f.hx - l);
          sx += w * f.cx[static_cast<std::size_t>(f.index(n, m, l))];
          sy += w * f.cy[static_cast<std::size_t>(f.index(n, m, l))];
        }
    const Vec2 v = f.evaluate(x, y, t);
    worst = std::max({worst, std::abs(v.x - sx), std::abs(v.y - sy)});
  }
  std::printf("max |4x4x4 evaluation - full sum| = %.3g\n", worst);
  EXPECT_LT(worst, 1e-12);
}

} // namespace
} // namespace frost::motion
