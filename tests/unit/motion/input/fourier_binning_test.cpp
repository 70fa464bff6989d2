// Fourier binning at load (docs/movie_align.md#binning-and-memory): even sizes 2·round(X/(2b)); frequencies
// below the new Nyquist are kept exactly (a low-frequency pattern samples to the same pattern on
// the coarse grid), those above are removed, the mean is kept.
#include <cmath>

#include "frost/core/error.hpp"
#include "frost/motion/fourier_binning.hpp"
#include "frost/test/support.hpp"

namespace frost::motion {
namespace {

constexpr double kTwoPi = 6.283185307179586;

TEST(FourierBinning, SizesAreEven) {
  EXPECT_EQ(binned_size(4096, 2.0), 2048);
  EXPECT_EQ(binned_size(4096, 1.5), 2730);
  EXPECT_EQ(binned_size(3838, 3.0), 1280);
  EXPECT_EQ(binned_size(101, 1.5), 68);
  EXPECT_EQ(binned_size(75, 1.5), 50);
  EXPECT_EQ(binned_size(7676, 2.0), 3838);
  for (index_t n : {index_t(97), index_t(1000), index_t(3710), index_t(5761)})
    for (double b : {1.1, 1.5, 2.0, 2.7, 4.0}) {
      const index_t m = binned_size(n, b);
      EXPECT_EQ(m % 2, 0) << n << " / " << b;
      EXPECT_LE(std::abs(double(m) - double(n) / b), 1.0) << n << " / " << b;
    }
  try {
    binned_size(100, 0.5);
    FAIL() << "b < 1 accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::Usage);
  }
}

/// 3 + cos(2 pi kx x / W) + 0.5 sin(2 pi (jx x / W + jy y / H)), sampled at (x, y).
double pattern(double x, double y, double w, double h, int kx, int jx, int jy) {
  return 3.0 + std::cos(kTwoPi * kx * x / w) + 0.5 * std::sin(kTwoPi * (jx * x / w + jy * y / h));
}

void expect_pattern_kept(index_t w, index_t h, double b, int kx, int jx, int jy) {
  Image<float> in(Shape::image(w, h));
  for (index_t y = 0; y < h; ++y)
    for (index_t x = 0; x < w; ++x) in(x, y) = float(pattern(double(x), double(y), double(w), double(h), kx, jx, jy));
  const FourierBinner binner(w, h, b);
  const index_t ow = binner.out_width(), oh = binner.out_height();
  Image<float> out(Shape::image(ow, oh));
  const std::vector<float> copy(in.begin(), in.end());
  binner.apply(in.data(), out.data());
  double worst = 0, mean = 0;
  for (index_t y = 0; y < oh; ++y)
    for (index_t x = 0; x < ow; ++x) {
      // Output pixel (x, y) lies at input coordinate (x W / ow, y H / oh).
      const double want = pattern(double(x) * w / ow, double(y) * h / oh, double(w), double(h), kx, jx, jy);
      worst = std::max(worst, std::abs(out(x, y) - want));
      mean += out(x, y);
    }
  mean /= double(ow * oh);
  std::printf("%lldx%lld / %.2f -> %lldx%lld: max error %.2e, mean %.6f\n", (long long)w, (long long)h, b, (long long)ow,
              (long long)oh, worst, mean);
  EXPECT_LT(worst, 2e-5);
  EXPECT_NEAR(mean, 3.0, 1e-5);
  for (index_t i = 0; i < in.size(); ++i) ASSERT_EQ(in[i], copy[std::size_t(i)]); // apply() keeps its input
}

TEST(FourierBinning, LowFrequencyPatternIsKeptByTwo) { expect_pattern_kept(96, 64, 2.0, 5, 3, 4); }

TEST(FourierBinning, LowFrequencyPatternIsKeptByARealFactorAndOddSizes) { expect_pattern_kept(101, 75, 1.5, 4, 2, -3); }

TEST(FourierBinning, FrequenciesAboveTheNewNyquistAreRemoved) {
  const index_t w = 96, h = 64;
  Image<float> in(Shape::image(w, h));
  for (index_t y = 0; y < h; ++y)
    for (index_t x = 0; x < w; ++x) in(x, y) = float(1.0 + std::cos(kTwoPi * 40 * x / w)); // above 48/2 = 24
  const FourierBinner binner(w, h, 2.0);
  Image<float> out(Shape::image(48, 32));
  binner.apply(in.data(), out.data());
  double worst = 0;
  for (float v : out) worst = std::max(worst, std::abs(double(v) - 1.0));
  std::printf("residual of a frequency above the binned Nyquist: %.2e\n", worst);
  EXPECT_LT(worst, 1e-5);
}

TEST(FourierBinning, FactorOneIsTheIdentity) {
  const FourierBinner binner(33, 20, 1.0);
  EXPECT_TRUE(binner.identity());
  EXPECT_EQ(binner.out_width(), 33);
  const auto v = test::random_floats(33 * 20, 4);
  std::vector<float> out(v.size());
  binner.apply(v.data(), out.data());
  EXPECT_EQ(out, v);
}

} // namespace
} // namespace frost::motion
