// Bilinear and trilinear sampling: samples at integer positions, exact for degree <= 1,
// zero extension outside the array, 90° rotation equals the exact transpose-flip.
#include <cmath>
#include <limits>
#include <random>

#include "frost/geometry/interpolation.hpp"
#include "frost/test/support.hpp"

namespace frost::geom {
namespace {

using test::random_image;

TEST(Bilinear, IntegerPositionsReturnTheSamples) {
  const Image<float> img = random_image<float>(Shape::image(7, 5), 1);
  for (index_t y = 0; y < 5; ++y)
    for (index_t x = 0; x < 7; ++x) EXPECT_EQ(bilinear(img.cview(), double(x), double(y)), img(x, y));
}

TEST(Bilinear, ReproducesLinearFunctionsExactly) {
  Image<double> img(Shape::image(9, 8));
  auto f = [](double x, double y) { return 0.7 - 1.3 * x + 2.1 * y; };
  for (index_t y = 0; y < 8; ++y)
    for (index_t x = 0; x < 9; ++x) img(x, y) = f(double(x), double(y));
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> ux(0.0, 8.0), uy(0.0, 7.0);
  for (int i = 0; i < 500; ++i) {
    const double x = ux(rng), y = uy(rng);
    EXPECT_NEAR(bilinear(img.cview(), x, y), f(x, y), 1e-12);
  }
  // Mixed xy terms are bilinear too: exact (not required for degree <= 1, but true).
  for (index_t y = 0; y < 8; ++y)
    for (index_t x = 0; x < 9; ++x) img(x, y) = double(x * y);
  EXPECT_NEAR(bilinear(img.cview(), 2.25, 3.5), 2.25 * 3.5, 1e-12);
}

TEST(Bilinear, ZeroOutsideAndLinearFadeAcrossTheBorder) {
  Image<double> img(Shape::image(4, 3));
  for (double& v : img) v = 2.0;
  EXPECT_EQ(bilinear(img.cview(), -1.0, 1.0), 0.0);
  EXPECT_EQ(bilinear(img.cview(), 4.0, 1.0), 0.0);
  EXPECT_EQ(bilinear(img.cview(), 1.0, 3.0), 0.0);
  EXPECT_EQ(bilinear(img.cview(), 1.0, -7.5), 0.0);
  EXPECT_NEAR(bilinear(img.cview(), -0.25, 1.0), 1.5, 1e-15);  // 0.75 of the edge sample
  EXPECT_NEAR(bilinear(img.cview(), 3.5, 2.5), 0.5, 1e-15);    // 0.5 · 0.5 · 2
  EXPECT_EQ(bilinear(img.cview(), 3.0, 2.0), 2.0);             // last sample itself
  EXPECT_EQ(bilinear(img.cview(), std::numeric_limits<double>::quiet_NaN(), 1.0), 0.0);
}

TEST(Bilinear, AddressesStackItems) {
  const Image<float> img = random_image<float>(Shape::image(5, 4, 3), 2);
  EXPECT_EQ(bilinear(img.cview(), 3.0, 2.0, 2), img(3, 2, 0, 2));
}

TEST(Bilinear, Rotation90EqualsTransposeFlip) {
  // Rotate the content by 90° about the centre c: out(p) = in(c + R(−90)(p − c)), i.e.
  // out(x, y) = in(y − c + c, c − (x − c)) for the exact grid; odd size, c = n/2 is a pixel.
  const index_t n = 11, c = n / 2;
  const Image<float> in = random_image<float>(Shape::image(n, n), 3);
  const double a = 90.0 * hdm::kPi / 180.0, ca = std::cos(a), sa = std::sin(a);  // ca ≈ 6e-17, not 0
  for (index_t y = 0; y < n; ++y)
    for (index_t x = 0; x < n; ++x) {
      const double dx = double(x - c), dy = double(y - c);
      const float v = bilinear(in.cview(), c + ca * dx + sa * dy, c - sa * dx + ca * dy);
      EXPECT_NEAR(v, in(y, 2 * c - x), 1e-6);
    }
}

TEST(Trilinear, IntegerPositionsAndLinearFunctions) {
  const Image<double> vol = random_image<double>(Shape::volume(5, 4, 6), 4);
  for (index_t z = 0; z < 6; ++z)
    for (index_t y = 0; y < 4; ++y)
      for (index_t x = 0; x < 5; ++x) EXPECT_EQ(trilinear(vol.cview(), double(x), double(y), double(z)), vol(x, y, z));

  Image<double> lin(Shape::volume(6, 7, 5));
  auto f = [](double x, double y, double z) { return -0.4 + 0.9 * x + 0.2 * y - 1.7 * z; };
  for (index_t z = 0; z < 5; ++z)
    for (index_t y = 0; y < 7; ++y)
      for (index_t x = 0; x < 6; ++x) lin(x, y, z) = f(double(x), double(y), double(z));
  std::mt19937 rng(6);
  std::uniform_real_distribution<double> ux(0.0, 5.0), uy(0.0, 6.0), uz(0.0, 4.0);
  for (int i = 0; i < 500; ++i) {
    const double x = ux(rng), y = uy(rng), z = uz(rng);
    EXPECT_NEAR(trilinear(lin.cview(), x, y, z), f(x, y, z), 1e-12);
  }
}

TEST(Trilinear, ZeroOutside) {
  Image<float> vol(Shape::volume(3, 3, 3));
  for (float& v : vol) v = 1.f;
  EXPECT_EQ(trilinear(vol.cview(), 1.0f, 1.0f, -1.0f), 0.f);
  EXPECT_EQ(trilinear(vol.cview(), 1.0f, 3.0f, 1.0f), 0.f);
  EXPECT_NEAR(trilinear(vol.cview(), 2.5f, 1.0f, 1.0f), 0.5f, 1e-7);
  EXPECT_NEAR(trilinear(vol.cview(), -0.5f, -0.5f, -0.5f), 0.125f, 1e-7);
}

} // namespace
} // namespace frost::geom
