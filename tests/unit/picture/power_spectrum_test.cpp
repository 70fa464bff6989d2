// The PSD picture (libs/picture power_spectrum.hpp). The periodogram itself is tested through
// motion::mean_periodogram (tests/unit/motion/render/power_spectrum_test.cpp), which calls it.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "frost/core/error.hpp"
#include "frost/picture/power_spectrum.hpp"

namespace frost::picture {
namespace {

constexpr double kPi = 3.14159265358979323846;

TEST(PowerSpectrumPicture, CosinePeaksAppearAtTheirFrequencyAroundTheCentre) {
  const index_t size = 256, n = 64;
  Image<float> img(Shape::image(size, size));
  std::mt19937 rng(4);
  std::normal_distribution<float> noise(0.f, 0.05f);
  // 8 cycles per 64-pixel tile along x: peaks at (32 ± 8, 32).
  for (index_t y = 0; y < size; ++y)
    for (index_t x = 0; x < size; ++x) img(x, y) = std::cos(2 * kPi * 8.0 * x / n) + noise(rng);
  const Image<float> psd = mean_periodogram(img.cview(), n);
  const Raster r = power_spectrum_picture(psd.cview());
  ASSERT_EQ(r.width, 64);
  ASSERT_EQ(r.height, 64);
  ASSERT_EQ(r.channels, 1);
  // Row 32 of the spectrum is picture row 63 - 32 = 31 (y up).
  EXPECT_EQ(r.at(24, 31)[0], 255);
  EXPECT_EQ(r.at(40, 31)[0], 255);
  long sum = 0;
  for (std::uint8_t v : r.pixels) sum += v;
  EXPECT_LT(static_cast<double>(sum) / static_cast<double>(r.pixels.size()), 160.0); // mostly the noise floor
  EXPECT_THROW(mean_periodogram(img.cview(), 63), Error);
}

TEST(PowerSpectrumPicture, SmoothImageIsBrightestAtTheCentre) {
  const index_t size = 128, n = 64;
  Image<float> img(Shape::image(size, size));
  std::mt19937 rng(9);
  std::normal_distribution<float> g(0.f, 1.f);
  for (float& v : img) v = g(rng);
  // A few passes of a 3x3 box blur: power falls with frequency.
  for (int pass = 0; pass < 3; ++pass) {
    Image<float> out(img.shape());
    for (index_t y = 0; y < size; ++y)
      for (index_t x = 0; x < size; ++x) {
        float s = 0;
        for (int dy = -1; dy <= 1; ++dy)
          for (int dx = -1; dx <= 1; ++dx) s += img((x + dx + size) % size, (y + dy + size) % size);
        out(x, y) = s / 9;
      }
    img = std::move(out);
  }
  const Raster r = power_spectrum_picture(mean_periodogram(img.cview(), n).cview());
  double centre = 0, edge = 0;
  int nc = 0, ne = 0;
  for (int y = 0; y < 64; ++y)
    for (int x = 0; x < 64; ++x) {
      const double d = std::hypot(x - 32.0, y - 31.0);
      if (d < 6) centre += r.at(x, y)[0], ++nc;
      if (d > 26) edge += r.at(x, y)[0], ++ne;
    }
  std::printf("smooth image PSD picture: centre mean %.1f, edge mean %.1f\n", centre / nc, edge / ne);
  EXPECT_GT(centre / nc, 200);
  EXPECT_LT(edge / ne, 80);
}

} // namespace
} // namespace frost::picture
