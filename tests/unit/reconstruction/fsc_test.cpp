// Tests of the Fourier shell correlation.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <random>

#include "frost/core/error.hpp"
#include "frost/fft/fft.hpp"
#include "frost/reconstruction/fsc.hpp"

namespace {

using frost::Image;
using frost::Shape;
using frost::index_t;
namespace recon = frost::recon;

Image<float> noise_volume(index_t n, unsigned seed, float sigma) {
  Image<float> v(Shape::volume(n, n, n));
  std::mt19937 rng(seed);
  std::normal_distribution<float> g(0.f, sigma);
  for (auto& x : v) x = g(rng);
  return v;
}

// Smooth signal: a few Gaussian blobs of sigma 2 px (spectrum ~ exp(-2 pi^2 sigma^2 f^2)).
Image<float> smooth_volume(index_t n) {
  Image<float> v(Shape::volume(n, n, n));
  const double c[4][3] = {{10, 12, 16}, {20, 16, 14}, {16, 22, 18}, {13, 18, 21}};
  for (index_t z = 0; z < n; ++z)
    for (index_t y = 0; y < n; ++y)
      for (index_t x = 0; x < n; ++x) {
        double s = 0;
        for (const auto& p : c) {
          const double d2 = (x - p[0]) * (x - p[0]) + (y - p[1]) * (y - p[1]) + (z - p[2]) * (z - p[2]);
          s += std::exp(-d2 / (2 * 2.0 * 2.0));
        }
        v(x, y, z) = static_cast<float>(s);
      }
  return v;
}

TEST(Fsc, SelfIsOneInEveryShell) {
  for (index_t n : {32, 33}) {
    const auto v = noise_volume(n, 1, 1.f);
    const auto c = recon::fsc_volumes(v.cview(), v.cview(), 1.0);
    ASSERT_EQ(c.fsc.size(), static_cast<std::size_t>(n / 2 + 1));
    for (std::size_t s = 0; s < c.fsc.size(); ++s) {
      if (s == 0) continue; // the DC shell of zero-mean noise is tiny but still 1
      EXPECT_NEAR(c.fsc[s], 1.0, 1e-9) << "n=" << n << " s=" << s;
    }
    EXPECT_EQ(c.count[0], 1);
    EXPECT_EQ(c.count[1], 6 + 12); // radii 1 and sqrt2 round to 1; sqrt3 rounds to 2
    EXPECT_EQ(c.count[2], 8 + 6 + 24 + 24); // radii sqrt3, 2, sqrt5, sqrt6 round to 2
  }
}

TEST(Fsc, NegationIsMinusOne) {
  const auto v = noise_volume(32, 2, 1.f);
  Image<float> w(v.shape());
  for (index_t i = 0; i < v.size(); ++i) w[i] = -v[i];
  const auto c = recon::fsc_volumes(v.cview(), w.cview(), 1.0);
  for (std::size_t s = 1; s < c.fsc.size(); ++s) EXPECT_NEAR(c.fsc[s], -1.0, 1e-9) << s;
}

TEST(Fsc, IndependentNoiseDropsAtHighFrequency) {
  const index_t n = 32;
  const auto sig = smooth_volume(n);
  auto a = noise_volume(n, 3, 0.05f), b = noise_volume(n, 4, 0.05f);
  for (index_t i = 0; i < sig.size(); ++i) {
    a[i] += sig[i];
    b[i] += sig[i];
  }
  const auto c = recon::fsc_volumes(a.cview(), b.cview(), 2.0);
  for (std::size_t s = 0; s <= 4; ++s) EXPECT_GT(c.fsc[s], 0.95) << s;
  double tail = 0;
  for (std::size_t s = 12; s <= 16; ++s) tail += std::abs(c.fsc[s]);
  EXPECT_LT(tail / 5, 0.15);
  for (std::size_t s = 0; s < c.fsc.size(); ++s) std::printf("%.3f ", c.fsc[s]);
  std::printf("\n[measured] noisy halves: FSC0.5 at %.2f A, FSC0.143 at %.2f A (px 2)\n",
              c.resolution_05(), c.resolution_0143());
  EXPECT_GT(c.resolution_05(), c.resolution_0143());
  EXPECT_GT(c.resolution_0143(), 4.0); // above Nyquist: it did cross
}

TEST(Fsc, HalfSpectraEqualsVolumes) {
  const index_t n = 16;
  const auto a = noise_volume(n, 5, 1.f), b = noise_volume(n, 6, 1.f);
  namespace fft = frost::fft;
  auto plan = fft::shared_planner(fft::Backend::Cpu)->plan(fft::FftSpec::r2c(a.shape()));
  Image<fft::Complex> fa(a.shape().half_spectrum()), fb(a.shape().half_spectrum());
  plan.execute(a.cview(), fa.view());
  plan.execute(b.cview(), fb.view());
  const auto c1 = recon::fsc_half_spectra(fa.cview(), fb.cview(), a.shape(), 1.0);
  const auto c2 = recon::fsc_volumes(a.cview(), b.cview(), 1.0);
  for (std::size_t s = 0; s < c1.fsc.size(); ++s) EXPECT_DOUBLE_EQ(c1.fsc[s], c2.fsc[s]);
  // Parseval: total counted power equals N^3 * sum of squares of the real volume.
  double p = 0, r = 0;
  for (double x : c1.power1) p += x;
  for (index_t i = 0; i < a.size(); ++i) r += double(a[i]) * a[i];
  EXPECT_LT(p, double(n * n * n) * r * (1 + 1e-5)); // corners beyond N/2 are left out
}

TEST(Fsc, RejectsBadShapes) {
  Image<float> a(Shape::volume(8, 8, 6));
  EXPECT_THROW(recon::fsc_volumes(a.cview(), a.cview(), 1.0), frost::Error);
}

TEST(Fsc, CrossingOfSyntheticCurve) {
  // fsc[s] = 1 - s/10 on a 32 box, 1.5 A/px: 0.5 at shell 5 -> 48/5 = 9.6 A;
  // 0.143 at shell 8.57 -> 48/8.57 = 5.6009 A.
  std::vector<double> f(17);
  for (std::size_t s = 0; s < f.size(); ++s) f[s] = 1.0 - s / 10.0;
  EXPECT_NEAR(recon::crossing_resolution(f, 32, 1.5, 0.5), 9.6, 1e-12);
  EXPECT_NEAR(recon::crossing_resolution(f, 32, 1.5, 0.143), 48.0 / 8.57, 1e-12);
  recon::FscCurve c;
  c.box = 32;
  c.pixel_size = 1.5;
  c.fsc = f;
  EXPECT_NEAR(c.resolution_05(), 9.6, 1e-12);
  EXPECT_NEAR(c.frequency(5), 5.0 / 48.0, 1e-15);
  // never crosses: Nyquist (2 px)
  std::vector<double> ones(17, 1.0);
  EXPECT_NEAR(recon::crossing_resolution(ones, 32, 1.5, 0.143), 3.0, 1e-12);
  // a curve with a dip: the first crossing counts
  std::vector<double> dip = {1, 0.9, 0.4, 0.8, 0.1};
  EXPECT_NEAR(recon::crossing_resolution(dip, 8, 1.0, 0.5), 8.0 / 1.8, 1e-12);
}

} // namespace
