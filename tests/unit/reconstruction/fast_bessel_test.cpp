// The single-precision Bessel functions of the on-the-fly kernel path (fast_bessel.hpp) against
// the double-precision series recon::bessel_i (docs/reconstruct_fourier.md#the-blob-kernel; U2 in
// docs/reconstruct_fourier.md#unit-tests).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "frost/reconstruction/blob.hpp"
#include "frost/reconstruction/fast_bessel.hpp"

namespace {

namespace recon = frost::recon;

constexpr int kSamples = 15001; // x = 0, 0.001, ..., 15

double sample_x(int i) { return 15.0 * i / (kSamples - 1); }

TEST(FastBessel, I0WithinOneMillionthRelativeOnZeroToFifteen) {
  double worst = 0, at = 0;
  for (int i = 0; i < kSamples; ++i) {
    const double x = sample_x(i);
    const double ref = recon::bessel_i(0, x);
    const double rel = std::abs(recon::bessel_i0_fast(static_cast<float>(x)) - ref) / ref;
    if (rel > worst) worst = rel, at = x;
  }
  std::printf("[measured] bessel_i0_fast vs series on [0, 15]: max rel %.3g at x = %.3f\n", worst, at);
  EXPECT_LE(worst, 1e-6);
}

TEST(FastBessel, I1WithinOneMillionthRelativeOnZeroToFifteen) {
  double worst = 0;
  for (int i = 1; i < kSamples; ++i) {
    const double x = sample_x(i);
    const double ref = recon::bessel_i(1, x);
    worst = std::max(worst, std::abs(recon::bessel_im_fast(1, static_cast<float>(x)) - ref) / ref);
  }
  std::printf("[measured] bessel_im_fast(1) vs series on (0, 15]: max rel %.3g\n", worst);
  EXPECT_LE(worst, 1e-6);
}

// Orders 2-4 come from the upward recurrence I_{n+1} = I_{n-1} - (2n/x) I_n, which cancels
// for x below about n: I_m(x) ~ (x/2)^m / m! is tiny there while I_{n-1} is not, so the float
// rounding of I0 and I1 (~1e-7 of I0 ~ 1) is amplified without bound in relative terms as
// x -> 0. That does not matter for the kernel: a blob weight is u^m I_m(alpha u) / I_m(alpha),
// so what counts is the error relative to I_m(alpha) (here alpha = 15).
// Away from zero (x >= 2m) the relative error stays near the I0/I1 level, but each recurrence
// step adds float rounding: order 4 (three steps) measures 1.1e-6, so orders 2-4 are held to
// 2e-6 instead of the 1e-6 of I0 and I1.
TEST(FastBessel, HigherOrdersWithinTwoMillionthsOfTheirPeakAndRelativeAwayFromZero) {
  for (int m = 2; m <= 4; ++m) {
    const double peak = recon::bessel_i(m, 15.0);
    double worst_of_peak = 0, worst_rel_all = 0, worst_rel_far = 0;
    for (int i = 1; i < kSamples; ++i) {
      const double x = sample_x(i);
      const double ref = recon::bessel_i(m, x);
      const double err = std::abs(recon::bessel_im_fast(m, static_cast<float>(x)) - ref);
      worst_of_peak = std::max(worst_of_peak, err / peak);
      worst_rel_all = std::max(worst_rel_all, err / ref);
      if (x >= 2.0 * m) worst_rel_far = std::max(worst_rel_far, err / ref);
    }
    std::printf("[measured] bessel_im_fast(%d): max err / I_%d(15) %.3g; max rel on [%d, 15] %.3g; "
                "max rel on (0, 15] %.3g (recurrence cancellation near 0)\n",
                m, m, worst_of_peak, 2 * m, worst_rel_far, worst_rel_all);
    EXPECT_LE(worst_of_peak, 2e-6) << "order " << m;
    EXPECT_LE(worst_rel_far, 2e-6) << "order " << m;
  }
  EXPECT_EQ(recon::bessel_im_fast(3, 0.0f), 0.0f);
}

} // namespace
