// Quality metrics: RELION's accumulated motion, the half-sum FRC against a naive DFT computed
// here, and the dose-weighting power ratio (docs/session.md#quality-metrics).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <random>
#include <vector>

#include "frost/core/error.hpp"
#include "frost/core/image.hpp"
#include "frost/session/accumulated_motion.hpp"
#include "frost/session/dose_weight_check.hpp"
#include "frost/session/half_sum_frc.hpp"

namespace frost::session {
namespace {

constexpr double kMetricsPi = 3.14159265358979323846;

TEST(SessionAccumulatedMotion, EarlyAndLateSplitAtTheDoseCutoff) {
  // 10 frames moving 1 px per frame in x; 0.5 Å pixels; 1 e/Å² per frame.
  std::vector<double> x, y;
  for (int f = 0; f < 10; ++f) {
    x.push_back(f);
    y.push_back(0);
  }
  const AccumulatedMotion m = accumulated_motion(x, y, 0.5, 1.0);
  EXPECT_DOUBLE_EQ(m.total, 4.5);
  EXPECT_DOUBLE_EQ(m.early, 1.5) << "steps into frames 2, 3, 4 (accumulated dose <= 4)";
  EXPECT_DOUBLE_EQ(m.late, 3.0);
  EXPECT_DOUBLE_EQ(m.max_frame_shift, 0.5);
  EXPECT_DOUBLE_EQ(accumulated_motion(x, y, 0.5, 1.0, 1.0).early, 1.0) << "pre-exposure moves the cutoff";
  EXPECT_DOUBLE_EQ(accumulated_motion(x, y, 0.5, 0.0).early, 4.5) << "unknown dose: all early, as RELION";
  EXPECT_THROW(accumulated_motion({0, 1}, {0}, 1, 1), Error);
}

TEST(SessionAccumulatedMotion, StepsAreEuclideanAndSignIndependent) {
  const AccumulatedMotion m = accumulated_motion({0, 3, 0}, {0, 4, 0}, 1.0, 10.0);
  EXPECT_DOUBLE_EQ(m.total, 10.0);
  EXPECT_DOUBLE_EQ(m.early, 0.0) << "10 e/Å² per frame: no frame is under 4";
  EXPECT_DOUBLE_EQ(m.max_frame_shift, 5.0);
}

/// White Gaussian noise blurred by a circular Gaussian of `sigma` px: a signal whose power falls
/// with frequency.
Image<float> smooth_signal(index_t n, double sigma, std::mt19937& rng) {
  std::normal_distribution<float> gauss(0.f, 1.f);
  std::vector<float> white(static_cast<std::size_t>(n * n));
  for (float& v : white) v = gauss(rng);
  Image<float> out(Shape::image(n, n));
  const int r = static_cast<int>(std::ceil(4 * sigma));
  for (index_t y = 0; y < n; ++y)
    for (index_t x = 0; x < n; ++x) {
      double acc = 0;
      for (int dy = -r; dy <= r; ++dy)
        for (int dx = -r; dx <= r; ++dx) {
          const index_t xx = (x + dx + n) % n, yy = (y + dy + n) % n;
          acc += std::exp(-(dx * dx + dy * dy) / (2 * sigma * sigma)) * white[static_cast<std::size_t>(yy * n + xx)];
        }
      out(x, y) = static_cast<float>(acc);
    }
  return out;
}

/// The FRC resolution by a naive DFT of the whole plane, written here independently of frost::fft
/// and of the library's ring code.
double naive_frc_resolution(const Image<float>& a, const Image<float>& b, double pixel) {
  const index_t n = a.shape().x;
  const int shells = static_cast<int>(n / 2 + 1);
  std::vector<double> cross(shells), pa(shells), pb(shells);
  for (index_t ky = -n / 2; ky < n / 2; ++ky)
    for (index_t kx = -n / 2; kx < n / 2; ++kx) {
      std::complex<double> A, B;
      for (index_t y = 0; y < n; ++y)
        for (index_t x = 0; x < n; ++x) {
          const double phase = -2 * kMetricsPi * static_cast<double>(kx * x + ky * y) / static_cast<double>(n);
          const std::complex<double> w(std::cos(phase), std::sin(phase));
          A += w * static_cast<double>(a(x, y));
          B += w * static_cast<double>(b(x, y));
        }
      const long s = std::lround(std::sqrt(static_cast<double>(kx * kx + ky * ky)));
      if (s >= shells) continue;
      cross[s] += (A * std::conj(B)).real();
      pa[s] += std::norm(A);
      pb[s] += std::norm(B);
    }
  for (int s = 2; s < shells; ++s) {
    const double frc = cross[s] / std::sqrt(pa[s] * pb[s]);
    if (frc < 0.143) {
      const double prev = cross[s - 1] / std::sqrt(pa[s - 1] * pb[s - 1]);
      const double shell = (s - 1) + (prev - 0.143) / (prev - frc);
      return static_cast<double>(n) * pixel / shell;
    }
  }
  return 2 * pixel;
}

TEST(SessionHalfSumFrc, MatchesANaiveDftWithinTenPercent) {
  constexpr index_t n = 48;
  constexpr double pixel = 1.1;
  std::mt19937 rng(20261128);
  const Image<float> signal = smooth_signal(n, 1.2, rng);
  // Independent noise in the two half sums, sized so that the FRC crosses 0.143 near 1/4 px.
  std::normal_distribution<float> noise(0.f, 0.42f);
  Image<float> even(Shape::image(n, n)), odd(Shape::image(n, n));
  for (index_t y = 0; y < n; ++y)
    for (index_t x = 0; x < n; ++x) {
      even(x, y) = signal(x, y) + noise(rng);
      odd(x, y) = signal(x, y) + noise(rng);
    }
  const double ours = half_sum_frc_resolution(even.cview(), odd.cview(), pixel);
  const double reference = naive_frc_resolution(even, odd, pixel);
  EXPECT_NEAR(ours / reference, 1.0, 0.10) << "frost " << ours << " Å, naive DFT " << reference << " Å";
  EXPECT_GT(reference, 2.2 * pixel) << "the test signal must cross well inside Nyquist";
  EXPECT_LT(reference, 12 * pixel);
}

TEST(SessionHalfSumFrc, IdenticalSumsReachNyquistAndNoiseDoesNot) {
  std::mt19937 rng(7);
  const Image<float> a = smooth_signal(40, 0.6, rng);
  EXPECT_DOUBLE_EQ(half_sum_frc_resolution(a.cview(), a.cview(), 0.8), 1.6);
  std::normal_distribution<float> gauss(0.f, 1.f);
  Image<float> u(Shape::image(64, 40)), v(Shape::image(64, 40));
  for (index_t i = 0; i < 64 * 40; ++i) {
    u.data()[i] = gauss(rng);
    v.data()[i] = gauss(rng);
  }
  const FrcCurve c = fourier_ring_correlation(u.cview(), v.cview(), 1.0);
  EXPECT_EQ(c.frc.size(), 21u) << "shells of the shorter axis";
  EXPECT_NEAR(c.frequency.back(), 0.5, 1e-12);
  EXPECT_GT(frc_resolution(c), 10.0) << "independent noise has no resolution";
}

TEST(SessionDoseWeightCheck, PowerRatioOfScaledAndBlurredSums) {
  std::mt19937 rng(3);
  const Image<float> sum = smooth_signal(32, 0.5, rng);
  EXPECT_NEAR(high_frequency_power_ratio(sum.cview(), sum.cview()), 1.0, 1e-12);
  Image<float> half(sum.shape());
  for (index_t i = 0; i < sum.shape().total(); ++i) half.data()[i] = 0.5f * sum.data()[i];
  EXPECT_NEAR(high_frequency_power_ratio(half.cview(), sum.cview()), 0.25, 1e-6);
  // A 3-tap blur in x damps the high frequencies: the ratio falls well below 1.
  Image<float> blurred(sum.shape());
  for (index_t y = 0; y < 32; ++y)
    for (index_t x = 0; x < 32; ++x)
      blurred(x, y) = 0.25f * sum((x + 31) % 32, y) + 0.5f * sum(x, y) + 0.25f * sum((x + 1) % 32, y);
  const double r = high_frequency_power_ratio(blurred.cview(), sum.cview());
  EXPECT_GT(r, 0.05);
  EXPECT_LT(r, 0.6);
}

} // namespace
} // namespace frost::session
