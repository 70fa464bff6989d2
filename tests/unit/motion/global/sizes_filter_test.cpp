// Working sizes and the low-pass filter ("Filter and sizes" in docs/movie_align.md#unit-checks).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

#include "frost/core/error.hpp"
#include "frost/motion/working_sizes.hpp"

namespace frost::motion {
namespace {

GlobalSettings settings_for(double ts, double r, FftSizeRule rule) {
  GlobalSettings s;
  s.pixel_size = ts;
  s.max_resolution = r;
  s.fft_sizes = rule;
  return s;
}

TEST(GlobalSizes, LowpassIsHalfAtMaxResolution) {
  for (double r : {8.0, 30.0, 100.0}) {
    const double h = lowpass_gain(1.0 / r, r);
    std::printf("R %.0f A: H(1/R) = %.9f\n", r, h);
    EXPECT_NEAR(h, 0.5, 1e-6);
  }
  // H(4 sigma) = e^-8: the correlation grid's Nyquist frequency is 4 sigma when C = k·M.
  const double r = 30.0, nyquist = 1.0 / (2.0 * target_pixel_size(r));
  EXPECT_NEAR(lowpass_gain(nyquist, r), std::exp(-8.0), 1e-9);
}

TEST(GlobalSizes, FalconAtOneAngstrom) {
  const WorkingSizes exact = working_sizes(4096, 4096, settings_for(1.0, 30.0, FftSizeRule::Exact));
  const WorkingSizes fast = working_sizes(4096, 4096, settings_for(1.0, 30.0, FftSizeRule::Fast));
  std::printf("exact: %s\nfast:  %s\n", to_string(exact).c_str(), to_string(fast).c_str());
  EXPECT_NEAR(exact.scale, 0.22649, 1e-4);
  EXPECT_NEAR(exact.target_pixel, 4.415, 1e-3);
  EXPECT_EQ(exact.correlation, (Size2{928, 928}));
  EXPECT_EQ(fast.correlation, (Size2{960, 960}));
  EXPECT_EQ(fast.transform, (Size2{4096, 4096}));
  // Ts_c = Ts_b·M/C and the search radius rho = (S/Ts_b)·C/M (S = 50 A).
  EXPECT_NEAR(fast.correlation_pixel_x(), 4096.0 / 960.0, 1e-12);
  EXPECT_NEAR(fast.search_radius, 50.0 * 960.0 / 4096.0, 1e-12);
}

TEST(GlobalSizes, FilterGridMatchesSigmaOnTheCorrelationGrid) {
  // sigma = c·Ts_c/R in cycles per correlation pixel; the grid uses physical frequencies.
  const WorkingSizes s = working_sizes(1000, 700, settings_for(1.3, 30.0, FftSizeRule::Fast));
  const Image<float> h = lowpass_filter(s);
  ASSERT_EQ(h.shape(), Shape::image(s.correlation.x / 2 + 1, s.correlation.y));
  const double sx = kLowpassConstant * s.correlation_pixel_x() / s.max_resolution;
  const double sy = kLowpassConstant * s.correlation_pixel_y() / s.max_resolution;
  double worst = 0;
  for (index_t y = 0; y < s.correlation.y; ++y)
    for (index_t x = 0; x <= s.correlation.x / 2; ++x) {
      const double wx = static_cast<double>(x) / static_cast<double>(s.correlation.x);
      const double ky = static_cast<double>(y <= s.correlation.y / 2 ? y : y - s.correlation.y);
      const double wy = ky / static_cast<double>(s.correlation.y);
      const double expect = std::exp(-0.5 * (wx * wx / (sx * sx) + wy * wy / (sy * sy)));
      worst = std::max(worst, std::abs(h(x, y) - expect));
    }
  std::printf("%s: max |H - exp(-w^2/2sigma^2)| = %.2e\n", to_string(s).c_str(), worst);
  EXPECT_LT(worst, 1e-6);
}

TEST(GlobalSizes, ScaleOfOneOrMoreIsRejected) {
  // R <= 8c·Ts ≈ 6.79·Ts gives k >= 1.
  const double limit = 8.0 * kLowpassConstant; // 6.7946
  std::printf("R limit = %.5f Ts\n", limit);
  EXPECT_NO_THROW(correlation_scale(1.0, 6.80));
  for (double r : {6.79, 6.0, limit}) {
    try {
      working_sizes(1024, 1024, settings_for(1.0, r, FftSizeRule::Fast));
      ADD_FAILURE() << "R = " << r << " accepted";
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), ExitCode::Usage);
      EXPECT_NE(std::string(e.what()).find("maxResForCorrelation"), std::string::npos) << e.what();
    }
  }
  // Binning counts: R 10 A is fine at Ts_b 1 A but not at Ts_b 2 A.
  EXPECT_NO_THROW(correlation_scale(1.0, 10.0));
  EXPECT_THROW(correlation_scale(2.0, 10.0), Error);
}

// The default R (20 A) follows a processing pixel too coarse for it; an R the user gave does not.
TEST(GlobalSizes, DefaultResolutionFollowsACoarsePixel) {
  GlobalSettings gs;
  EXPECT_EQ(gs.max_resolution, 20.0);
  EXPECT_TRUE(gs.max_resolution_is_default);
  set_processing_pixel_size(gs, 1.0);
  EXPECT_EQ(gs.pixel_size, 1.0);
  EXPECT_EQ(gs.max_resolution, 20.0) << "fine pixels keep the default";
  set_processing_pixel_size(gs, 4.0); // 20 A would need Ts_b < 2.94 A
  EXPECT_EQ(gs.max_resolution, 28.0);
  EXPECT_NO_THROW(working_sizes(1024, 1024, gs));
  GlobalSettings given;
  given.max_resolution = 20.0;
  given.max_resolution_is_default = false; // as the program sets it for --maxResForCorrelation 20
  set_processing_pixel_size(given, 4.0);
  EXPECT_EQ(given.max_resolution, 20.0);
  EXPECT_THROW(working_sizes(1024, 1024, given), Error);
}

TEST(GlobalSizes, FastSizesAreSmoothAndEven) {
  EXPECT_EQ(next_fast_even_size(928), 960);
  EXPECT_EQ(next_fast_even_size(232), 240);
  EXPECT_EQ(next_fast_even_size(961), 972);
  EXPECT_EQ(next_fast_even_size(1), 2);
  EXPECT_EQ(previous_fast_even_size(3838), 3780);
  EXPECT_EQ(previous_fast_even_size(4096), 4096);
  for (index_t n = 1; n < 3000; ++n) {
    const index_t f = next_fast_even_size(n);
    ASSERT_TRUE(f >= n && f % 2 == 0 && is_seven_smooth(f)) << n;
    for (index_t m = n; m < f; ++m) ASSERT_FALSE(m % 2 == 0 && is_seven_smooth(m)) << n << " skips " << m;
  }
}

TEST(GlobalSizes, OptionalFrameCropIsCentredAndBounded) {
  GlobalSettings s = settings_for(1.0, 30.0, FftSizeRule::Exact);
  s.crop_frames = true;
  const WorkingSizes k2 = working_sizes(3838, 3710, s);
  std::printf("K2 with crop: %s\n", to_string(k2).c_str());
  EXPECT_TRUE(is_seven_smooth(k2.transform.x) && is_seven_smooth(k2.transform.y));
  EXPECT_GE(static_cast<double>(k2.transform.x * k2.transform.y), 0.9 * 3838.0 * 3710.0);
  // C follows k·X_b; Ts_c uses M (quirk 3 of
  // docs/movie_align.md#known-quirks-of-the-reference-programs-we-do-not-copy).
  EXPECT_NEAR(k2.correlation_pixel_x(), static_cast<double>(k2.transform.x) / k2.correlation.x, 1e-12);
  // Odd frames are transformed on an even window.
  const WorkingSizes odd = working_sizes(1001, 999, settings_for(1.0, 30.0, FftSizeRule::Fast));
  EXPECT_EQ(odd.transform, (Size2{1000, 998}));
  EXPECT_EQ(odd.correlation.x % 2, 0);
  EXPECT_EQ(odd.correlation.y % 2, 0);
}

} // namespace
} // namespace frost::motion
