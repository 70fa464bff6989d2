// The program figures (libs/picture figures.hpp): central sections in the right place and
// orientation, the FSC curve falling from the top left, the drift plot's panels and markers.
#include <gtest/gtest.h>

#include <cmath>

#include "frost/core/error.hpp"
#include "frost/picture/canvas.hpp"
#include "frost/picture/figures.hpp"

namespace frost::picture {
namespace {

int count_colour(const Raster& r, Rgb c, int x0 = 0, int x1 = -1) {
  if (x1 < 0) x1 = r.width;
  int n = 0;
  for (int y = 0; y < r.height; ++y)
    for (int x = x0; x < x1; ++x) n += r.colour(x, y) == c;
  return n;
}

/// Mean row of the pixels of colour `c` in columns [x0, x1); -1 when there are none.
double mean_row(const Raster& r, Rgb c, int x0, int x1) {
  double sum = 0;
  int n = 0;
  for (int y = 0; y < r.height; ++y)
    for (int x = x0; x < x1; ++x)
      if (r.colour(x, y) == c) {
        sum += y;
        ++n;
      }
  return n ? sum / n : -1;
}

TEST(Figures, CentralSectionsShowABlobWhereItIs) {
  const index_t n = 32;
  Image<float> v(Shape::volume(n, n, n));
  // A bright cube right of centre and above it in y, on the central z plane.
  for (index_t z = 15; z <= 17; ++z)
    for (index_t y = 22; y <= 26; ++y)
      for (index_t x = 22; x <= 26; ++x) v(x, y, z) = 10;
  const Raster r = central_sections(v.cview(), 512, 96); // magnified x3
  ASSERT_EQ(r.channels, 1);
  ASSERT_EQ(r.width, 3 * 96 + 2 * 4);
  ASSERT_EQ(r.height, 96);
  auto section_pixel = [&](int section, index_t u, index_t w) { // (u, w) in volume voxels, w up
    return r.at(section * (96 + 4) + static_cast<int>(u) * 3 + 1, 95 - static_cast<int>(w) * 3 - 1)[0];
  };
  EXPECT_EQ(section_pixel(0, 24, 24), 255); // xy at z = 16: x 24, y 24
  EXPECT_EQ(section_pixel(0, 24, 8), 0);    // y mirrored: empty
  EXPECT_EQ(section_pixel(1, 24, 16), 0);   // xz at y = 16: the cube is at y 22..26, not there
  EXPECT_EQ(section_pixel(2, 24, 16), 0);   // yz at x = 16: nor there
  EXPECT_EQ(r.at(96 + 1, 50)[0], 255);      // the white gap
  EXPECT_THROW(central_sections(Image<float>(Shape::image(8, 8)).cview()), Error);
}

TEST(Figures, FscCurveFallsFromTopLeftAndHasThresholdLines) {
  FscFigure f;
  for (int s = 0; s <= 32; ++s) {
    f.frequency.push_back(s / (64 * 2.0));
    f.fsc.push_back(1.0 / (1.0 + std::exp((s - 20) / 2.0)));
  }
  const Raster r = fsc_figure(f);
  ASSERT_EQ(r.width, 640);
  ASSERT_EQ(r.height, 400);
  ASSERT_EQ(r.channels, 3);
  const double left = mean_row(r, colours::kBlue, 80, 200), right = mean_row(r, colours::kBlue, 560, 620);
  std::printf("FSC figure: curve at mean row %.1f on the left, %.1f on the right\n", left, right);
  ASSERT_GE(left, 0);
  ASSERT_GE(right, 0);
  EXPECT_LT(left, 40);    // FSC ~1 near the top
  EXPECT_GT(right, 300);  // FSC ~0 near the bottom
  EXPECT_GT(count_colour(r, colours::kGrey), 200);      // zero line and the 0.143 dashes
  EXPECT_GT(count_colour(r, colours::kLightGrey), 100); // 0.5 dashes and grid
  f.fsc.pop_back();
  EXPECT_THROW(fsc_figure(f), Error);
}

TEST(Figures, DriftPlotHasGlobalAndLocalPanels) {
  DriftFigure f;
  for (int t = 0; t < 10; ++t) {
    f.x.push_back(-2.0 * t);
    f.y.push_back(0.5 * t * t / 9);
  }
  const Raster global = drift_figure(f);
  ASSERT_EQ(global.width, 400);
  ASSERT_EQ(global.height, 400);
  EXPECT_GT(count_colour(global, colours::kBlue), 100);
  EXPECT_GT(count_colour(global, colours::kGreen), 20); // first frame
  EXPECT_GT(count_colour(global, colours::kRed), 20);   // last frame
  // The trajectory runs to the left: the first frame's marker is right of the last one.
  double green_x = 0, red_x = 0;
  int ng = 0, nr = 0;
  for (int y = 0; y < 400; ++y)
    for (int x = 0; x < 400; ++x) {
      if (global.colour(x, y) == colours::kGreen) green_x += x, ++ng;
      if (global.colour(x, y) == colours::kRed) red_x += x, ++nr;
    }
  EXPECT_GT(green_x / ng, red_x / nr + 100);

  f.width = 1000;
  f.height = 800;
  for (double cy : {200.0, 600.0})
    for (double cx : {250.0, 750.0}) {
      DriftTrack t{cx, cy, {}, {}};
      for (std::size_t k = 0; k < f.x.size(); ++k) {
        t.dx.push_back(f.x[k] + 0.001 * cx);
        t.dy.push_back(f.y[k]);
      }
      f.local.push_back(t);
    }
  const Raster both = drift_figure(f);
  ASSERT_EQ(both.width, 800);
  ASSERT_EQ(both.height, 400);
  EXPECT_EQ(count_colour(both, colours::kOrange, 0, 400), 0);
  EXPECT_GT(count_colour(both, colours::kOrange, 400, 800), 4 * 20); // four magnified tracks
  f.local[1].dx.pop_back();
  EXPECT_THROW(drift_figure(f), Error);
}

} // namespace
} // namespace frost::picture
