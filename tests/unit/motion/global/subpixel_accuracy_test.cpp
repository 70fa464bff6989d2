// Sub-pixel estimator accuracy on a noise-free pair (docs/movie_align.md#sub-pixel-accuracy): 1024² frames,
// Ts 1 Å, R 30 Å, frame 2 = frame 1 with its content moved by (δ, δ/2), δ = 0 … 4.5 px in 0.25 steps.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

#include "frost/fft/fft.hpp"
#include "frost/geometry/fourier_shift.hpp"
#include "frost/motion/frame_spectra.hpp"
#include "frost/motion/pair_correlation.hpp"
#include "frost/simulate/movie.hpp"

namespace frost::motion {
namespace {

constexpr index_t kFrame = 1024, kMargin = 64, kCanvas = kFrame + 2 * kMargin;

// The central kFrame² window of the canvas after moving its content by (sx, sy) (periodic canvas).
Image<float> shifted_frame(const Image<fft::Complex>& canvas_spectrum, double sx, double sy) {
  const Shape cs = Shape::image(kCanvas, kCanvas);
  Image<fft::Complex> spec(canvas_spectrum.shape());
  std::copy(canvas_spectrum.begin(), canvas_spectrum.end(), spec.begin());
  geom::shift_spectrum<float>(spec.view(), cs, sx, sy);
  Image<float> moved(cs);
  fft::shared_planner(fft::Backend::Cpu)->plan(fft::FftSpec::c2r(cs)).execute(spec.view(), moved.view());
  Image<float> f(Shape::image(kFrame, kFrame));
  for (index_t y = 0; y < kFrame; ++y)
    for (index_t x = 0; x < kFrame; ++x) f(x, y) = moved(x + kMargin, y + kMargin);
  return f;
}

TEST(SubpixelAccuracy, NoiseFreePair) {
  const Image<float> canvas = sim::make_specimen(kCanvas, kCanvas, 1.0, 0.0, 7);
  Image<fft::Complex> canvas_spectrum(Shape::image(kCanvas, kCanvas).half_spectrum());
  fft::shared_planner(fft::Backend::Cpu)
      ->plan(fft::FftSpec::r2c(Shape::image(kCanvas, kCanvas)))
      .execute(canvas.cview(), canvas_spectrum.view());

  GlobalSettings settings; // Ts 1 Å, R 30 Å, S 50 Å, fast sizes
  const WorkingSizes sizes = working_sizes(kFrame, kFrame, settings);
  const Image<float> filter = lowpass_filter(sizes);
  const Image<float> first = shifted_frame(canvas_spectrum, 0, 0);
  const Image<fft::Complex> s1 = filtered_spectra({first.cview()}, sizes, filter.cview());
  Image<fft::Complex> scratch(s1.shape());
  Image<float> map(Shape::image(sizes.correlation.x, sizes.correlation.y));
  const fft::FftPlan c2r = fft::shared_planner(fft::Backend::Cpu)->plan(fft::FftSpec::c2r(map.shape()));

  const SubpixelMethod methods[] = {SubpixelMethod::Gauss3, SubpixelMethod::Parabolic, SubpixelMethod::Centroid3};
  double worst[3] = {0, 0, 0};
  std::printf("%s\n  delta   gauss3  parabolic  centroid3  (error |m - (delta, delta/2)| in px)\n",
              to_string(sizes).c_str());
  for (int step = 0; step <= 18; ++step) {
    const double delta = 0.25 * step;
    const Image<float> second = shifted_frame(canvas_spectrum, delta, delta / 2);
    const Image<fft::Complex> s2 = filtered_spectra({second.cview()}, sizes, filter.cview());
    correlation_map(s1.cview(), s2.cview(), scratch.view(), map.view(), c2r);
    double err[3];
    for (int m = 0; m < 3; ++m) {
      const Peak p = find_peak(map.cview(), sizes.search_radius, methods[m]);
      const double mx = -p.x * sizes.to_processing_x(), my = -p.y * sizes.to_processing_y();
      err[m] = std::hypot(mx - delta, my - delta / 2);
      worst[m] = std::max(worst[m], err[m]);
    }
    std::printf("  %5.2f  %7.4f  %9.4f  %9.4f\n", delta, err[0], err[1], err[2]);
  }
  std::printf("max error: gauss3 %.4f (<= 0.05), parabolic %.4f (<= 0.10), centroid3 %.4f (> 1)\n", worst[0],
              worst[1], worst[2]);
  EXPECT_LE(worst[0], 0.05);
  EXPECT_LE(worst[1], 0.10);
  EXPECT_GT(worst[2], 1.0);
}

} // namespace
} // namespace frost::motion
