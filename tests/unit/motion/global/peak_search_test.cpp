// Sub-pixel refinement formulas and the search disc of
// docs/movie_align.md#peak-search-and-sub-pixel-refinement.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

#include "frost/motion/peak_search.hpp"

namespace frost::motion {
namespace {

// A Gaussian peak of width `sigma` at (cx + px, cy + py) on a w x h map.
Image<float> gaussian_map(index_t w, index_t h, double px, double py, double sigma) {
  Image<float> m(Shape::image(w, h));
  for (index_t y = 0; y < h; ++y)
    for (index_t x = 0; x < w; ++x) {
      const double dx = static_cast<double>(x - w / 2) - px, dy = static_cast<double>(y - h / 2) - py;
      m(x, y) = static_cast<float>(std::exp(-(dx * dx + dy * dy) / (2 * sigma * sigma)));
    }
  return m;
}

TEST(PeakRefinement, Gauss3IsExactForGaussiansAndParabolicForParabolas) {
  double worst_g = 0, worst_p = 0;
  for (double d = -0.5; d <= 0.5; d += 0.05)
    for (double s : {0.8, 1.8, 3.0}) {
      auto g = [&](double k) { return std::exp(-(k - d) * (k - d) / (2 * s * s)); };
      worst_g = std::max(worst_g, std::abs(geom::gauss3_offset(g(-1), g(0), g(1)) - d));
      auto q = [&](double k) { return 5.0 - (k - d) * (k - d) * s; };
      worst_p = std::max(worst_p, std::abs(geom::parabolic_offset(q(-1), q(0), q(1)) - d));
    }
  std::printf("gauss3 on Gaussians %.2e, parabolic on parabolas %.2e\n", worst_g, worst_p);
  EXPECT_LT(worst_g, 1e-12);
  EXPECT_LT(worst_p, 1e-12);
  // Non-positive values fall back to the parabola; a flat top gives 0.
  EXPECT_DOUBLE_EQ(geom::gauss3_offset(-1.0, 2.0, 1.0), geom::parabolic_offset(-1.0, 2.0, 1.0));
  EXPECT_DOUBLE_EQ(geom::parabolic_offset(1.0, 1.0, 1.0), 0.0);
}

TEST(PeakSearch, FindsRefinedMaximumInsideTheDisc) {
  const Image<float> m = gaussian_map(64, 48, 3.3, -5.6, 1.8);
  const Peak g = find_peak(m.cview(), 12.0, SubpixelMethod::Gauss3);
  const Peak p = find_peak(m.cview(), 12.0, SubpixelMethod::Parabolic);
  const Peak c = find_peak(m.cview(), 12.0, SubpixelMethod::Centroid3);
  std::printf("true (3.3, -5.6): gauss3 (%.4f, %.4f) parabolic (%.4f, %.4f) centroid3 (%.4f, %.4f)\n", g.x, g.y,
              p.x, p.y, c.x, c.y);
  EXPECT_EQ(g.ix, 3);
  EXPECT_EQ(g.iy, -6);
  EXPECT_FALSE(g.edge);
  EXPECT_NEAR(g.x, 3.3, 1e-4);
  EXPECT_NEAR(g.y, -5.6, 1e-4);
  EXPECT_NEAR(p.x, 3.3, 0.05);
  EXPECT_NEAR(p.y, -5.6, 0.05);
  // The 3x3 centroid of a 1.8-px-wide peak is pulled towards the integer maximum.
  EXPECT_GT(std::abs(c.y - (-5.6)), 0.2);
}

TEST(PeakSearch, PeakOutsideTheDiscIsFlaggedOnTheEdge) {
  // True maximum 10 px away; radius 6: the best value inside is on the boundary.
  const Image<float> m = gaussian_map(64, 64, 10.0, 0.0, 1.8);
  const Peak out = find_peak(m.cview(), 6.0, SubpixelMethod::Gauss3);
  std::printf("radius 6, true 10: integer (%d, %d), edge %d\n", out.ix, out.iy, out.edge);
  EXPECT_TRUE(out.edge);
  EXPECT_LE(std::hypot(out.ix, out.iy), 6.0);
  const Peak in = find_peak(m.cview(), 12.0, SubpixelMethod::Gauss3);
  EXPECT_FALSE(in.edge);
  EXPECT_EQ(in.ix, 10);
  // Just inside rho - 1.5 is not an edge, just outside is.
  const Image<float> m2 = gaussian_map(64, 64, 0.0, 5.0, 1.8);
  EXPECT_FALSE(find_peak(m2.cview(), 6.6, SubpixelMethod::Gauss3).edge);
  EXPECT_TRUE(find_peak(m2.cview(), 6.4, SubpixelMethod::Gauss3).edge);
}

} // namespace
} // namespace frost::motion
