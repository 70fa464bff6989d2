// The PSD of docs/movie_align.md#power-spectrum: mean periodogram of 50 %-overlapping tiles, centred.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <random>

#include "frost/core/error.hpp"
#include "frost/geometry/hd_math.hpp"
#include "frost/motion/power_spectrum.hpp"

namespace frost::motion {
namespace {

// White noise of variance σ² has E|FFT|² = σ²·n² at every frequency. Over 15 x 15 = 225 tiles of
// 64² (about 90 independent periodograms, overlapping tiles being correlated) the mean of an
// annulus of several hundred frequencies is within ~1 % (1σ) of that, and every annulus agrees
// (flat); 4 % allows for 3 seeds x 4 annuli at better than 5σ.
TEST(PowerSpectrum, WhiteNoiseIsFlat) {
  const index_t size = 512, n = 64;
  const double sigma = 2.0;
  const double expected = sigma * sigma * static_cast<double>(n * n);
  for (std::uint32_t seed : {17u, 18u, 19u}) {
    Image<float> noise(Shape::image(size, size));
    std::mt19937 rng(seed);
    std::normal_distribution<float> g(0.f, static_cast<float>(sigma));
    for (float& v : noise) v = g(rng);
    const Image<float> psd = mean_periodogram(noise.cview(), n);
    ASSERT_EQ(psd.shape(), Shape::image(n, n));
    // Four annuli of |k| (the last one holds the corners).
    double ring_sum[4] = {0, 0, 0, 0}, total = 0;
    long ring_count[4] = {0, 0, 0, 0};
    for (index_t y = 0; y < n; ++y)
      for (index_t x = 0; x < n; ++x) {
        const double r = std::hypot(static_cast<double>(x - n / 2), static_cast<double>(y - n / 2)) / (n / 2);
        const int ring = std::min(3, static_cast<int>(r * 4 / std::sqrt(2.0)));
        ring_sum[ring] += psd(x, y);
        ++ring_count[ring];
        total += psd(x, y);
      }
    const double mean = total / static_cast<double>(n * n);
    std::printf("[ measured ] seed %u: white noise PSD mean / (sigma^2 n^2) = %.4f; rings:", seed, mean / expected);
    for (int i = 0; i < 4; ++i) std::printf(" %.4f", ring_sum[i] / ring_count[i] / expected);
    std::printf("\n");
    EXPECT_NEAR(mean / expected, 1.0, 0.02);
    for (int i = 0; i < 4; ++i) EXPECT_NEAR(ring_sum[i] / ring_count[i] / expected, 1.0, 0.04) << "ring " << i;
  }
}

// cos(2π(kx·x + ky·y)/n) with whole cycles per tile: every tile has all its power at ±(kx, ky),
// |FFT| = n²/2 there, so the centred PSD peaks at (n/2 + kx, n/2 + ky) and (n/2 − kx, n/2 − ky)
// with value n⁴/4 and is ~0 elsewhere.
TEST(PowerSpectrum, CosinePeaksAtItsFrequency) {
  const index_t n = 64, nx = 320, ny = 224;
  const int kx = 10, ky = -7;
  Image<float> img(Shape::image(nx, ny));
  for (index_t y = 0; y < ny; ++y)
    for (index_t x = 0; x < nx; ++x)
      img(x, y) = static_cast<float>(std::cos(2.0 * geom::hdm::kPi * static_cast<double>(kx * x + ky * y) / n));
  const Image<float> psd = mean_periodogram(img.cview(), n);
  index_t best = 0;
  for (index_t i = 1; i < psd.size(); ++i)
    if (psd[i] > psd[best]) best = i;
  const index_t bx = best % n, by = best / n;
  const double peak_expected = std::pow(static_cast<double>(n), 4) / 4.0;
  const double p1 = psd(n / 2 + kx, n / 2 + ky), p2 = psd(n / 2 - kx, n / 2 - ky);
  double rest = 0;
  for (index_t y = 0; y < n; ++y)
    for (index_t x = 0; x < n; ++x)
      if (!((x == n / 2 + kx && y == n / 2 + ky) || (x == n / 2 - kx && y == n / 2 - ky))) rest = std::max(rest, static_cast<double>(psd(x, y)));
  std::printf("[ measured ] cosine (%d, %d): argmax (%lld, %lld), peaks %.6g %.6g [%.6g], largest other %.3g\n", kx, ky,
              static_cast<long long>(bx - n / 2), static_cast<long long>(by - n / 2), p1, p2, peak_expected, rest);
  EXPECT_TRUE((bx == n / 2 + kx && by == n / 2 + ky) || (bx == n / 2 - kx && by == n / 2 - ky));
  EXPECT_NEAR(p1 / peak_expected, 1.0, 1e-3);
  EXPECT_NEAR(p2 / peak_expected, 1.0, 1e-3);
  EXPECT_LT(rest, 1e-6 * peak_expected);
}

// Zero frequency sits at (n/2, n/2): a constant image c has all its power (c·n²)² there.
TEST(PowerSpectrum, ZeroFrequencyIsCentredAndSizesAreChecked) {
  Image<float> img(Shape::image(100, 80));
  for (float& v : img) v = 0.5f;
  const index_t n = 32;
  const Image<float> psd = mean_periodogram(img.cview(), n);
  const double dc = std::pow(0.5 * n * n, 2);
  std::printf("[ measured ] constant 0.5: PSD(n/2, n/2) = %.6g [%.6g], PSD(0, 0) = %.3g\n", psd(n / 2, n / 2), dc, psd(0, 0));
  EXPECT_NEAR(psd(n / 2, n / 2) / dc, 1.0, 1e-6);
  EXPECT_LT(psd(0, 0), 1e-6 * dc);
  EXPECT_THROW(mean_periodogram(img.cview(), 33), Error);
  EXPECT_THROW(mean_periodogram(img.cview(), 96), Error);
  EXPECT_THROW(mean_periodogram(img.cview(), 0), Error);
}

} // namespace
} // namespace frost::motion
