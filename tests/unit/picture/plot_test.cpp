// The plot rasteriser (libs/picture canvas.hpp, plot.hpp): ticks, the data-to-pixel map, and
// curves drawn where the map puts them and nowhere outside the plot area.
#include <gtest/gtest.h>

#include <cmath>

#include "frost/core/error.hpp"
#include "frost/picture/plot.hpp"

namespace frost::picture {
namespace {

void expect_ticks(Range r, int max_ticks, const std::vector<double>& expected) {
  const std::vector<double> t = nice_ticks(r, max_ticks);
  ASSERT_EQ(t.size(), expected.size()) << r.lo << " .. " << r.hi;
  for (std::size_t i = 0; i < t.size(); ++i) EXPECT_NEAR(t[i], expected[i], 1e-12) << i;
}

TEST(Plot, NiceTicksUseSteps1_2_5) {
  expect_ticks({0, 1}, 6, {0, 0.2, 0.4, 0.6, 0.8, 1});
  expect_ticks({-3, 17}, 5, {0, 5, 10, 15});
  expect_ticks({-0.1, 1.05}, 6, {0, 0.2, 0.4, 0.6, 0.8, 1});
  expect_ticks({-7.5, 2.5}, 6, {-6, -4, -2, 0, 2});
  expect_ticks({2, 2}, 6, {2});
  EXPECT_EQ(tick_label(0.4, 0.2), "0.4");
  EXPECT_EQ(tick_label(-10, 5), "-10");
  EXPECT_EQ(tick_label(0.025, 0.005), "0.025");
  EXPECT_EQ(tick_label(-1e-17, 0.1), "0");
}

TEST(Plot, DataRangeHasAMarginAndSurvivesOneValue) {
  const Range r = data_range({0, 10}, {}, 0.1);
  EXPECT_DOUBLE_EQ(r.lo, -1);
  EXPECT_DOUBLE_EQ(r.hi, 11);
  const Range one = data_range({3, 3}, {}, 0.05);
  EXPECT_LT(one.lo, 3);
  EXPECT_GT(one.hi, 3);
  const Range none = data_range({NAN}, {}, 0.05);
  EXPECT_EQ(none.lo, 0);
  EXPECT_EQ(none.hi, 1);
}

TEST(Plot, CurvePixelsLieWhereTheMapPutsThem) {
  Canvas canvas(240, 140);
  // 181 x 81 pixels for x in [0, 180], y in [0, 80]: one data unit per pixel, y up.
  PlotArea plot(canvas, {40, 20, 181, 81}, {0, 180}, {0, 80});
  EXPECT_DOUBLE_EQ(plot.px(0), 40);
  EXPECT_DOUBLE_EQ(plot.px(180), 220);
  EXPECT_DOUBLE_EQ(plot.py(0), 100);
  EXPECT_DOUBLE_EQ(plot.py(80), 20);
  plot.axes();
  // y = x / 2 for x in [0, 150], then far outside the area (clipped, not drawn elsewhere).
  plot.polyline({0, 150, 1e9}, {0, 75, -1e9}, colours::kBlue, 1);
  const Raster& r = canvas.raster();
  for (int x : {10, 60, 100, 140})
    EXPECT_EQ(r.colour(static_cast<int>(plot.px(x)), static_cast<int>(plot.py(x / 2.0))), colours::kBlue) << x;
  EXPECT_NE(r.colour(static_cast<int>(plot.px(100)), static_cast<int>(plot.py(20))), colours::kBlue);
  int outside = 0, frame = 0;
  for (int y = 0; y < r.height; ++y)
    for (int x = 0; x < r.width; ++x) {
      const bool inside = x >= 40 && x <= 220 && y >= 20 && y <= 100;
      if (!inside && r.colour(x, y) == colours::kBlue) ++outside;
      if (r.colour(x, y) == colours::kBlack) ++frame;
    }
  EXPECT_EQ(outside, 0);
  EXPECT_GT(frame, 2 * (181 + 81)); // the frame, ticks and labels
  EXPECT_THROW(PlotArea(canvas, {0, 0, 10, 10}, {1, 1}, {0, 1}), Error);
}

TEST(Plot, ThickLinesAndDashes) {
  Canvas canvas(50, 50);
  canvas.line(10, 25, 40, 25, colours::kRed, 3);
  for (int y : {24, 25, 26}) EXPECT_EQ(canvas.raster().colour(20, y), colours::kRed) << y;
  EXPECT_EQ(canvas.raster().colour(20, 27), colours::kWhite);
  canvas.dashed_line(0, 5, 49, 5, colours::kBlack, 6, 4);
  EXPECT_EQ(canvas.raster().colour(2, 5), colours::kBlack);  // first dash: 0..5
  EXPECT_EQ(canvas.raster().colour(8, 5), colours::kWhite);  // first gap: 6..9
  EXPECT_EQ(canvas.raster().colour(12, 5), colours::kBlack); // second dash
}

TEST(Plot, FontDrawsDigitsAndSkipsUnknownCharacters) {
  Canvas canvas(40, 20);
  canvas.text(1, 1, "1?", colours::kBlack, 2);
  EXPECT_EQ(Canvas::text_width("1?", 2), 14);
  int black = 0;
  for (int y = 0; y < 20; ++y)
    for (int x = 0; x < 40; ++x) black += canvas.raster().colour(x, y) == colours::kBlack;
  EXPECT_EQ(black, 4 * 8); // '1' has 8 font pixels of 2x2; '?' is blank
}

} // namespace
} // namespace frost::picture
