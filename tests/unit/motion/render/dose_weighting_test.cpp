// Dose weighting (docs/movie_align.md#dose-weighting; its unit checks).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <vector>

#include "frost/core/error.hpp"
#include "frost/fft/fft.hpp"
#include "frost/geometry/fourier_shift.hpp"
#include "frost/motion/dose_weighted_sum.hpp"
#include "frost/motion/dose_weighting.hpp"
#include "frost/motion/frame_accumulator.hpp"
#include "render_test_images.hpp"

namespace frost::motion {
namespace {

// The documented check: dose_per_frame 1, 300 kV, Ts 1 Å, frame 0 at k = 0.25 Å⁻¹:
// N_e = 0.245·0.25^−1.665 + 2.81 = 5.2737462140627835, w = exp(−1/(2 N_e)) = 0.9095464006629719
// (values from an independent evaluation in Python).
TEST(DoseWeighting, CriticalExposureAndWeightOfFrameZero) {
  const DoseSchedule s{1.0, 0.0, 300.0};
  const double ne = critical_exposure(0.25);
  const double w = dose_weight(0.25, frame_dose(s, 0));
  std::printf("[ measured ] N_e(0.25) = %.12f, w = %.12f\n", ne, w);
  EXPECT_NEAR(ne, 5.2737462140627835, 1e-6);
  EXPECT_NEAR(w, 0.9095464006629719, 1e-6);
  EXPECT_EQ(dose_weight(0.0, 50.0), 1.0);
  EXPECT_TRUE(std::isinf(critical_exposure(0.0)));
}

// Dose at the end of the frame, pre-exposure added, voltage scaling; other voltages refused.
TEST(DoseWeighting, FrameDoseAndVoltageScaling) {
  const DoseSchedule kv300{1.5, 2.0, 300.0}, kv200{1.5, 2.0, 200.0}, kv100{1.5, 2.0, 100.0};
  EXPECT_DOUBLE_EQ(frame_dose(kv300, 0), 3.5);
  EXPECT_DOUBLE_EQ(frame_dose(kv300, 9), 17.0);
  EXPECT_DOUBLE_EQ(frame_dose(kv200, 9), 17.0 / 0.8);
  EXPECT_DOUBLE_EQ(frame_dose(kv100, 9), 17.0 / 0.64);
  // 200 kV frame 0 of the same case: w = exp(−(1/0.8)/(2 N_e)) = 0.8882415291451714.
  EXPECT_NEAR(dose_weight(0.25, frame_dose({1.0, 0.0, 200.0}, 0)), 0.8882415291451714, 1e-6);
  for (double kv : {120.0, 0.0, 301.0}) {
    try {
      validate(DoseSchedule{1.0, 0.0, kv});
      FAIL() << kv << " kV accepted";
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), ExitCode::Usage);
    }
  }
  EXPECT_THROW(validate(DoseSchedule{0.0, 0.0, 300.0}), Error);
  EXPECT_THROW(validate(DoseSchedule{1.0, -1.0, 300.0}), Error);
}

/// Half spectrum of a real image (unnormalised forward FFT).
Image<fft::Complex> spectrum_of(const Image<float>& img) {
  Image<fft::Complex> s(img.shape().half_spectrum());
  fft::shared_planner(fft::Backend::Cpu)->plan(fft::FftSpec::r2c(img.shape())).execute(img.cview(), s.view());
  return s;
}

/// Identical frames t = first … first+count−1 give S_DW(k) = F(k)·Σw/√(Σw²), w from the schedule.
double check_identical_frames(const DoseSchedule& schedule, double pixel_size, int first, int count) {
  const index_t nx = 64, ny = 48;
  const Image<float> frame = test_images::band_limited_noise(nx, ny, 0.49, 21);
  DoseWeightedSum sum(nx, ny, pixel_size, schedule);
  for (int t = first; t < first + count; ++t) sum.add(t, frame.cview());
  EXPECT_EQ(sum.frames_added(), count);
  const Image<fft::Complex> got = spectrum_of(sum.result());
  const Image<fft::Complex> f = spectrum_of(frame);

  double num = 0, den = 0, ratio_at_quarter = 0, expected_at_quarter = 0;
  for (index_t jy = 0; jy < ny; ++jy)
    for (index_t jx = 0; jx <= nx / 2; ++jx) {
      const double fx = static_cast<double>(jx) / nx;
      const double fy = static_cast<double>(geom::fft_frequency(jy, ny)) / ny;
      const double k = std::sqrt(fx * fx + fy * fy) / pixel_size;
      double sw = 0, sw2 = 0;
      for (int t = first; t < first + count; ++t) {
        const double w = dose_weight(k, frame_dose(schedule, t));
        sw += w;
        sw2 += w * w;
      }
      const std::complex<double> want = std::complex<double>(f(jx, jy)) * (sw / std::sqrt(sw2));
      num += std::norm(std::complex<double>(got(jx, jy)) - want);
      den += std::norm(want);
      if (jx == nx / 4 && jy == 0) {  // k = 0.25 px⁻¹
        ratio_at_quarter = std::abs(std::complex<double>(got(jx, jy)) / std::complex<double>(f(jx, jy)));
        expected_at_quarter = sw / std::sqrt(sw2);
      }
    }
  const double rel = std::sqrt(num / den);
  std::printf("[ measured ] %g kV, Ts %g, frames %d..%d: |S_DW/F| at k=0.25/px %.7f [expected %.7f], "
              "spectrum rel. error %.2e\n",
              schedule.voltage_kv, pixel_size, first, first + count - 1, ratio_at_quarter, expected_at_quarter, rel);
  EXPECT_LT(rel, 1e-5);
  EXPECT_NEAR(ratio_at_quarter, expected_at_quarter, 1e-5);
  // Scale check at k = 0: all weights 1, so S_DW(0) = F(0)·N/√N.
  EXPECT_NEAR(std::abs(std::complex<double>(got(0, 0))), std::abs(std::complex<double>(f(0, 0))) * std::sqrt(count),
              1e-3 + 1e-5 * std::abs(std::complex<double>(f(0, 0))));
  return ratio_at_quarter;
}

TEST(DoseWeightedSum, IdenticalFramesGiveWeightRatio) {
  const double r300 = check_identical_frames({1.0, 0.0, 300.0}, 1.0, 0, 10);
  const double r200 = check_identical_frames({1.0, 0.0, 200.0}, 1.0, 0, 10);
  check_identical_frames({0.8, 3.0, 100.0}, 1.3, 4, 7);
  // The 200 kV doses are 1/0.8 larger: the weights fall faster, so Σw/√(Σw²) is smaller.
  EXPECT_LT(r200, r300 - 1e-3);
}

TEST(DoseWeightedSum, AccumulatorOutputEqualsDirectSum) {
  const index_t nx = 40, ny = 32;
  SumOptions options;
  options.dose_weighted = true;
  options.dose = {1.2, 0.5, 300.0};
  options.pixel_size = 0.9;
  FrameAccumulator acc(nx, ny, 2, 4, options);
  DoseWeightedSum direct(nx, ny, 0.9, options.dose);
  for (int t = 2; t < 6; ++t) {
    const Image<float> ft = test_images::band_limited_noise(nx, ny, 0.45, static_cast<std::uint32_t>(t));
    acc.add_aligned(t, ft.cview());
    direct.add(t, ft.cview());
  }
  const FrameSums sums = acc.finish();
  const Image<float> ref = direct.result();
  ASSERT_EQ(sums.dose_weighted.shape(), ref.shape());
  EXPECT_EQ(std::memcmp(sums.dose_weighted.data(), ref.data(), sizeof(float) * static_cast<std::size_t>(ref.size())), 0);
  EXPECT_THROW(DoseWeightedSum(nx, ny, 1.0, {1.0, 0.0, 120.0}), Error);
}

} // namespace
} // namespace frost::motion
