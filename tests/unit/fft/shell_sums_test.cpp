// fft::shell_sums against sums over the whole spectrum (both halves, no Hermitian weights) of a
// naive double DFT computed here, for even and odd image sizes; the band sums against the same.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <random>
#include <vector>

#include "frost/fft/shell_sums.hpp"

namespace frost::fft {
namespace {

using Spectrum = std::vector<std::complex<double>>;

/// The full nx x ny DFT of a real image (x fastest), in double.
Spectrum naive_dft(const std::vector<double>& img, index_t nx, index_t ny) {
  const double two_pi = 2 * std::acos(-1.0);
  Spectrum out(static_cast<std::size_t>(nx * ny));
  for (index_t ky = 0; ky < ny; ++ky)
    for (index_t kx = 0; kx < nx; ++kx) {
      std::complex<double> s = 0;
      for (index_t y = 0; y < ny; ++y)
        for (index_t x = 0; x < nx; ++x)
          s += img[static_cast<std::size_t>(y * nx + x)] *
               std::polar(1.0, -two_pi * (double(kx * x) / double(nx) + double(ky * y) / double(ny)));
      out[static_cast<std::size_t>(ky * nx + kx)] = s;
    }
  return out;
}

/// The R2C half (nx/2+1 by ny) of a full spectrum, in float as the transforms give it.
std::vector<std::complex<float>> half_of(const Spectrum& full, index_t nx, index_t ny) {
  const index_t hx = nx / 2 + 1;
  std::vector<std::complex<float>> h(static_cast<std::size_t>(hx * ny));
  for (index_t y = 0; y < ny; ++y)
    for (index_t x = 0; x < hx; ++x) h[static_cast<std::size_t>(y * hx + x)] = std::complex<float>(full[static_cast<std::size_t>(y * nx + x)]);
  return h;
}

class ShellSumsCase : public ::testing::TestWithParam<std::pair<int, int>> {};

TEST_P(ShellSumsCase, EqualSumsOverTheWholeSpectrum) {
  const index_t nx = GetParam().first, ny = GetParam().second;
  std::mt19937 rng(static_cast<unsigned>(nx * 100 + ny));
  std::normal_distribution<double> g;
  std::vector<double> a(static_cast<std::size_t>(nx * ny)), b(a.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    a[i] = g(rng);
    b[i] = 0.6 * a[i] + 0.8 * g(rng); // correlated: cross terms of both signs
  }
  const Spectrum fa = naive_dft(a, nx, ny), fb = naive_dft(b, nx, ny);
  // Every element of the full spectrum once, its frequency from signed indices on both axes.
  const int rings = static_cast<int>(std::min(nx, ny));
  const int shells = rings / 2 + 1;
  std::vector<double> cross(shells, 0.0), pa(shells, 0.0), pb(shells, 0.0);
  double band_a = 0, band_b = 0;
  const FrequencyBand band{0.2, 0.45};
  for (index_t y = 0; y < ny; ++y)
    for (index_t x = 0; x < nx; ++x) {
      const double kx = double(x <= nx / 2 ? x : x - nx) / double(nx), ky = double(y <= ny / 2 ? y : y - ny) / double(ny);
      const double f = std::sqrt(kx * kx + ky * ky);
      const std::complex<double> A = fa[static_cast<std::size_t>(y * nx + x)], B = fb[static_cast<std::size_t>(y * nx + x)];
      const long s = std::lround(f * rings);
      if (s < shells) {
        cross[s] += (A * std::conj(B)).real();
        pa[s] += std::norm(A);
        pb[s] += std::norm(B);
      }
      if (f >= band.lo && f <= band.hi) {
        band_a += std::norm(A);
        band_b += std::norm(B);
      }
    }
  const auto ha = half_of(fa, nx, ny), hb = half_of(fb, nx, ny);
  const ShellSums got = shell_sums(ha.data(), hb.data(), nx, ny, band);
  ASSERT_EQ(got.rings, rings);
  ASSERT_EQ(got.cross.size(), static_cast<std::size_t>(shells));
  // The half spectrum was rounded to float: about 1e-7 relative per element.
  for (int s = 0; s < shells; ++s) {
    const double scale = std::sqrt(pa[s] * pb[s]) + 1e-12;
    EXPECT_NEAR(got.cross[s], cross[s], 1e-5 * scale) << "shell " << s;
    EXPECT_NEAR(got.power_a[s], pa[s], 1e-5 * pa[s] + 1e-12) << "shell " << s;
    EXPECT_NEAR(got.power_b[s], pb[s], 1e-5 * pb[s] + 1e-12) << "shell " << s;
  }
  EXPECT_GT(band_a, 0.0);
  EXPECT_NEAR(got.band_a, band_a, 1e-5 * band_a);
  EXPECT_NEAR(got.band_b, band_b, 1e-5 * band_b);
}

INSTANTIATE_TEST_SUITE_P(Sizes, ShellSumsCase,
                         ::testing::Values(std::make_pair(12, 12), std::make_pair(16, 11), std::make_pair(13, 18),
                                           std::make_pair(9, 9)));

TEST(ShellSums, ArrayLayoutRoundTrips) {
  const int rings = 10, shells = shell_count(rings);
  std::vector<double> array(shell_sums_array_size(rings));
  for (std::size_t i = 0; i < array.size(); ++i) array[i] = static_cast<double>(i);
  const ShellSums s = shell_sums_from_array(array.data(), rings);
  EXPECT_EQ(s.cross.front(), 0.0);
  EXPECT_EQ(s.power_a.front(), shells);
  EXPECT_EQ(s.power_b.back(), 3.0 * shells - 1);
  EXPECT_EQ(s.band_a, 3.0 * shells);
  EXPECT_EQ(s.band_b, 3.0 * shells + 1);
}

} // namespace
} // namespace frost::fft
