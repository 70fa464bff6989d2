// Intensity windows, orientation, shrinking and magnifying (libs/picture tone.hpp).
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "frost/core/error.hpp"
#include "frost/picture/tone.hpp"

namespace frost::picture {
namespace {

TEST(Tone, PercentileWindowIgnoresNonFiniteValues) {
  Image<float> ramp(Shape::image(101, 1));
  for (index_t i = 0; i < 101; ++i) ramp[i] = static_cast<float>(i);
  ramp[50] = std::numeric_limits<float>::quiet_NaN(); // 100 finite values remain: 0..49, 51..100
  const Window w = percentile_window(ramp.cview(), 0, 100);
  EXPECT_EQ(w.low, 0);
  EXPECT_EQ(w.high, 100);
  const Window mid = percentile_window(ramp.cview(), 10, 90);
  EXPECT_EQ(mid.low, 10);  // nearest rank: sorted index round(0.1 * 99) = 10
  EXPECT_EQ(mid.high, 90); // index round(0.9 * 99) = 89 holds 90 (50 is missing)
  EXPECT_THROW(percentile_window(ramp.cview(), 60, 40), Error);
}

TEST(Tone, GreyPictureHasRowZeroAtTheBottomAndClamps) {
  Image<float> img(Shape::image(3, 2));
  img(0, 0) = -5; // below the window
  img(1, 0) = 0.5f;
  img(2, 0) = 7;  // above
  img(0, 1) = 0;
  img(1, 1) = 1;
  img(2, 1) = std::numeric_limits<float>::infinity();
  const Raster r = to_grey(img.cview(), Window{0, 1});
  ASSERT_EQ(r.width, 3);
  ASSERT_EQ(r.height, 2);
  ASSERT_EQ(r.channels, 1);
  // Picture row 1 (bottom) is image row 0.
  EXPECT_EQ(r.at(0, 1)[0], 0);
  EXPECT_EQ(r.at(1, 1)[0], 128); // 127.5 rounds up
  EXPECT_EQ(r.at(2, 1)[0], 255);
  EXPECT_EQ(r.at(0, 0)[0], 0);
  EXPECT_EQ(r.at(1, 0)[0], 255);
  EXPECT_EQ(r.at(2, 0)[0], 0); // non-finite: black
  // A constant image is mid-grey, not noise stretched to black and white.
  Image<float> flat(Shape::image(4, 4));
  for (float& v : flat) v = 3;
  const Raster f = to_grey(flat.cview());
  for (std::uint8_t v : f.pixels) EXPECT_EQ(v, 128);
  EXPECT_THROW(to_grey(Image<float>(Shape::volume(2, 2, 2)).cview(), Window{}), Error);
}

TEST(Tone, ShrinkAveragesBoxesIncludingPartialEdges) {
  Image<float> img(Shape::image(5, 3));
  for (index_t y = 0; y < 3; ++y)
    for (index_t x = 0; x < 5; ++x) img(x, y) = static_cast<float>(10 * y + x);
  const Image<float> s = shrink(img.cview(), 2);
  ASSERT_EQ(s.shape(), Shape::image(3, 2));
  EXPECT_FLOAT_EQ(s(0, 0), (0 + 1 + 10 + 11) / 4.f);
  EXPECT_FLOAT_EQ(s(2, 0), (4 + 14) / 2.f);       // right edge: one column
  EXPECT_FLOAT_EQ(s(1, 1), (22 + 23) / 2.f);      // top edge: one row
  EXPECT_FLOAT_EQ(s(2, 1), 24.f);                 // corner: one pixel
  const Image<float> fit = shrink_to_fit(Image<float>(Shape::image(1000, 300)).cview(), 256);
  EXPECT_EQ(fit.shape(), Shape::image(250, 75)); // factor 4
  EXPECT_EQ(shrink_to_fit(img.cview(), 8).shape(), img.shape());
}

TEST(Tone, MagnifyRepeatsPixels) {
  Raster r = Raster::rgb(2, 1, {0, 0, 0});
  r.at(1, 0)[1] = 9;
  const Raster m = magnify(r, 3);
  ASSERT_EQ(m.width, 6);
  ASSERT_EQ(m.height, 3);
  EXPECT_EQ(m.colour(2, 2), (Rgb{0, 0, 0}));
  EXPECT_EQ(m.colour(3, 0), (Rgb{0, 9, 0}));
  EXPECT_EQ(m.colour(5, 2), (Rgb{0, 9, 0}));
}

} // namespace
} // namespace frost::picture
