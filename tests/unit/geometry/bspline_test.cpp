// Cubic B-spline: basis weights, mirror boundaries, prefilter (samples reproduced, the
// defining tridiagonal system solved), cubic polynomials reproduced in the interior, 90°
// rotation equals the exact transpose-flip.
#include <cmath>
#include <random>

#include "frost/geometry/bspline.hpp"
#include "frost/test/support.hpp"

namespace frost::geom {
namespace {

using test::random_image;

TEST(BSpline, WeightsAreTheCubicBasis) {
  double w[4];
  cubic_bspline_weights(0.0, w);
  EXPECT_NEAR(w[0], 1.0 / 6, 1e-16);
  EXPECT_NEAR(w[1], 4.0 / 6, 1e-16);
  EXPECT_NEAR(w[2], 1.0 / 6, 1e-16);
  EXPECT_NEAR(w[3], 0.0, 1e-16);
  cubic_bspline_weights(0.5, w);
  EXPECT_NEAR(w[0], 1.0 / 48, 1e-16);
  EXPECT_NEAR(w[1], 23.0 / 48, 1e-16);
  EXPECT_NEAR(w[2], 23.0 / 48, 1e-16);
  EXPECT_NEAR(w[3], 1.0 / 48, 1e-16);
  for (double t = 0; t < 1; t += 0.07) {
    cubic_bspline_weights(t, w);
    EXPECT_NEAR(w[0] + w[1] + w[2] + w[3], 1.0, 1e-15);
    EXPECT_NEAR(-w[0] + w[2] + 2 * w[3], t, 1e-15);  // first moment: linear precision
  }
}

TEST(BSpline, MirrorIndexIsWholeSampleSymmetric) {
  // n = 4, i = −3 … 6:  3 2 1 | 0 1 2 3 | 2 1 0
  const index_t expected[] = {3, 2, 1, 0, 1, 2, 3, 2, 1, 0};
  for (index_t i = -3; i <= 6; ++i) EXPECT_EQ(mirror_index(i, 4), expected[i + 3]) << i;
  EXPECT_EQ(mirror_index(-5, 1), 0);
  EXPECT_EQ(mirror_index(3, 2), 1);
}

TEST(BSpline, PrefilterSolvesTheInterpolationSystem) {
  // Coefficients must satisfy (c[k−1] + 4c[k] + c[k+1]) / 6 = s[k] with mirrored c, for short
  // lines (closed-form periodic start) and long ones (truncated start).
  for (index_t n : {2, 3, 4, 7, 16, 17, 40, 100}) {
    const auto f = test::random_floats(static_cast<std::size_t>(n), static_cast<std::uint32_t>(n));
    std::vector<double> c(f.begin(), f.end());
    bspline_prefilter_1d(c.data(), n);
    for (index_t k = 0; k < n; ++k) {
      const double lhs = (c[mirror_index(k - 1, n)] + 4 * c[k] + c[mirror_index(k + 1, n)]) / 6.0;
      EXPECT_NEAR(lhs, f[static_cast<std::size_t>(k)], 1e-13) << "n=" << n << " k=" << k;
    }
  }
  double one = 3.5;
  bspline_prefilter_1d(&one, 1);
  EXPECT_EQ(one, 3.5);
}

TEST(BSpline, InterpolatesTheSamplesAfterPrefilter) {
  for (const Shape s : {Shape::image(17, 12), Shape::image(5, 2), Shape::image(40, 33)}) {
    const Image<double> img = random_image<double>(s, 7);
    const Image<double> c = bspline_coefficients_2d(img.cview());
    for (index_t y = 0; y < s.y; ++y)
      for (index_t x = 0; x < s.x; ++x)
        ASSERT_NEAR(bspline_interp2(c.cview(), double(x), double(y)), img(x, y), 1e-12) << to_string(s);
  }
  // Float coefficients, float evaluation.
  const Image<float> img = random_image<float>(Shape::image(13, 9), 8);
  const Image<float> c = bspline_coefficients_2d(img.cview());
  for (index_t y = 0; y < 9; ++y)
    for (index_t x = 0; x < 13; ++x) EXPECT_NEAR(bspline_interp2(c.cview(), float(x), float(y)), img(x, y), 2e-6f);
}

TEST(BSpline, ReproducesCubicPolynomialsInTheInterior) {
  // The mirror boundary perturbs the coefficients of a non-symmetric polynomial near the
  // edges; the perturbation decays like |z|^d = 0.268^d, so 20 pixels in it is below 1e-11.
  const index_t n = 48;
  auto p = [](double x, double y) {
    const double u = (x - 24.0) / 8.0, v = (y - 24.0) / 8.0;
    return 0.3 + u - 0.5 * v + 0.7 * u * u - 0.2 * u * v + 0.4 * v * v + 0.9 * u * u * u - 0.6 * u * u * v +
           0.25 * u * v * v - 0.8 * v * v * v;
  };
  Image<double> img(Shape::image(n, n));
  for (index_t y = 0; y < n; ++y)
    for (index_t x = 0; x < n; ++x) img(x, y) = p(double(x), double(y));
  const Image<double> c = bspline_coefficients_2d(img.cview());
  std::mt19937 rng(9);
  std::uniform_real_distribution<double> u(20.0, 28.0);
  for (int i = 0; i < 500; ++i) {
    const double x = u(rng), y = u(rng);
    EXPECT_NEAR(bspline_interp2(c.cview(), x, y), p(x, y), 1e-10);
  }
}

TEST(BSpline, OutOfRangeIsZeroBeyondThePixelFootprint) {
  const Image<double> img = random_image<double>(Shape::image(6, 5), 3);
  const Image<double> c = bspline_coefficients_2d(img.cview());
  EXPECT_EQ(bspline_interp2(c.cview(), -0.51, 2.0), 0.0);
  EXPECT_EQ(bspline_interp2(c.cview(), 5.51, 2.0), 0.0);
  EXPECT_EQ(bspline_interp2(c.cview(), 2.0, 4.6), 0.0);
  EXPECT_NE(bspline_interp2(c.cview(), -0.49, 2.0), 0.0);
  // Rounding noise just outside the first sample still reads it.
  EXPECT_NEAR(bspline_interp2(c.cview(), -1e-15, 0.0), img(0, 0), 1e-12);
}

TEST(BSpline, Rotation90EqualsTransposeFlip) {
  // Odd size: centre c = n/2 maps the grid onto itself, out(x, y) = in(y, 2c − x).
  // Even size: the centre n/2 is off the middle, out(x, y) = in(y, n − x), and column x = 0
  // reads row n, which is outside (0 by definition).
  for (index_t n : {11, 12}) {
    const index_t c = n / 2;
    const Image<double> in = random_image<double>(Shape::image(n, n), 4);
    const Image<double> coef = bspline_coefficients_2d(in.cview());
    const double a = 90.0 * hdm::kPi / 180.0, ca = std::cos(a), sa = std::sin(a);
    for (index_t y = 0; y < n; ++y)
      for (index_t x = 0; x < n; ++x) {
        const double dx = double(x - c), dy = double(y - c);
        const double v = bspline_interp2(coef.cview(), c + ca * dx + sa * dy, c - sa * dx + ca * dy);
        const index_t sy = 2 * c - x;
        const double expected = sy < n ? in(y, sy) : 0.0;
        ASSERT_NEAR(v, expected, 1e-12) << "n=" << n << " at " << x << "," << y;
      }
  }
}

} // namespace
} // namespace frost::geom
