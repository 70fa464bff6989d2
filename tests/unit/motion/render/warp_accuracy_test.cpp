// Accuracy and sign of the frame warp A(x) = F(x − s(x)) (docs/movie_align.md#warping-a-frame,
// #interpolation-and-micrograph-quality).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <vector>

#include "frost/core/error.hpp"
#include "frost/geometry/hd_math.hpp"
#include "frost/motion/warp_frame.hpp"
#include "render_test_images.hpp"

namespace frost::motion {
namespace {

using test_images::band_limited_noise;
using test_images::fourier_shifted;
using test_images::interior_relative_rms;

// The documented interpolation check: shift (0.37, −0.81) px of a 512² image band-limited to |k| <
// 0.25 px⁻¹ (unit std), against the exact Fourier shift over the interior (32-px margin). bspline3
// must be within 1.5e-2 [prototype 0.006]; bilinear is reported [0.13] and must be clearly worse.
TEST(WarpAccuracy, BSpline3MatchesExactShiftOnBandLimitedImage) {
  const Vec2 s{0.37, -0.81};
  for (std::uint32_t seed : {1u, 2u, 3u}) {
    const Image<float> frame = band_limited_noise(512, 512, 0.25, seed);
    const Image<float> exact = fourier_shifted(frame.cview(), s.x, s.y);
    const Image<float> spline = warp_frame(frame.cview(), FrameShift::constant(s), InterpolationMethod::BSpline3);
    const Image<float> linear = warp_frame(frame.cview(), FrameShift::constant(s), InterpolationMethod::Bilinear);
    const double e_spline = interior_relative_rms(spline.cview(), exact.cview(), 32);
    const double e_linear = interior_relative_rms(linear.cview(), exact.cview(), 32);
    std::printf("[ measured ] seed %u: relative rms bspline3 %.4f (<= 0.015), bilinear %.4f (reported)\n", seed,
                e_spline, e_linear);
    EXPECT_LE(e_spline, 1.5e-2);
    EXPECT_GT(e_linear, 3.0 * e_spline);
    EXPECT_LT(e_linear, 0.3);
  }
}

// `fourier` against the analytic phase ramp. The frame is a sum of cosines with integer
// frequencies on a non-square grid, so the shifted frame is known exactly:
// A(x, y) = Σ a cos(2π(kx (x − sx)/nx + ky (y − sy)/ny) + φ). A sign error, an x/y swap or an
// off-by-one origin gives errors of order 1.
TEST(WarpAccuracy, FourierMatchesAnalyticPhaseRamp) {
  const index_t nx = 128, ny = 96;
  struct Wave {
    double a, kx, ky, phase;
  };
  const std::vector<Wave> waves = {{1.0, 3, 5, 0.3}, {0.5, -7, 2, -1.1}, {0.25, 11, -13, 2.0}, {0.2, 40, 30, 0.7}};
  const auto value = [&](double x, double y) {
    double v = 0;
    for (const Wave& w : waves)
      v += w.a * std::cos(2.0 * geom::hdm::kPi * (w.kx * x / nx + w.ky * y / ny) + w.phase);
    return v;
  };
  Image<float> frame(Shape::image(nx, ny));
  for (index_t y = 0; y < ny; ++y)
    for (index_t x = 0; x < nx; ++x) frame(x, y) = static_cast<float>(value(static_cast<double>(x), static_cast<double>(y)));
  const Vec2 s{0.37, -0.81};
  const Image<float> out = warp_frame(frame.cview(), FrameShift::constant(s), InterpolationMethod::Fourier);
  double worst = 0;
  for (index_t y = 0; y < ny; ++y)
    for (index_t x = 0; x < nx; ++x)
      worst = std::max(worst, std::abs(out(x, y) - value(static_cast<double>(x) - s.x, static_cast<double>(y) - s.y)));
  std::printf("[ measured ] fourier warp vs analytic ramp: max |error| = %.3g (amplitude sum 1.95)\n", worst);
  EXPECT_LE(worst, 1e-5);
}

// Sign (docs/movie_align.md#conventions): frame t holds the reference content displaced by d (the
// point at x in the reference is at x + d in the frame). Warping it with the stored shift s = −d
// must give the reference back; warping with +d must not.
TEST(WarpAccuracy, ShiftMinusDisplacementReproducesReference) {
  const Image<float> reference = band_limited_noise(256, 256, 0.2, 11);
  const Vec2 d{2.3, -1.6};
  const Image<float> frame = fourier_shifted(reference.cview(), d.x, d.y);
  const FrameShift stored = FrameShift::constant({-d.x, -d.y});
  const FrameShift wrong = FrameShift::constant(d);
  for (InterpolationMethod m : {InterpolationMethod::BSpline3, InterpolationMethod::Bilinear, InterpolationMethod::Fourier}) {
    const double right = interior_relative_rms(warp_frame(frame.cview(), stored, m).cview(), reference.cview(), 16);
    const double bad = interior_relative_rms(warp_frame(frame.cview(), wrong, m).cview(), reference.cview(), 16);
    std::printf("[ measured ] %s: s = -d error %.2e, s = +d error %.2f\n", to_string(m).c_str(), right, bad);
    EXPECT_LT(right, m == InterpolationMethod::Fourier ? 1e-5 : m == InterpolationMethod::BSpline3 ? 1e-2 : 0.15);
    EXPECT_GT(bad, 0.5);
  }
}

// A shift that varies over the frame goes through the per-pixel path: a smooth analytic frame
// sampled at x − s(x, y) for a B-spline field that is linear in x and y (the cubic basis
// reproduces linear functions exactly, so s is known in closed form).
TEST(WarpAccuracy, LocalFieldWarpMatchesAnalyticResampling) {
  const index_t nx = 192, ny = 160;
  const auto frame_value = [](double x, double y) {
    return std::cos(2.0 * geom::hdm::kPi * (0.031 * x + 0.017 * y)) + 0.5 * std::sin(2.0 * geom::hdm::kPi * (0.045 * y - 0.012 * x));
  };
  const auto sx_true = [&](double x, double y) { return 1.5 + 0.01 * x - 0.006 * y; };
  const auto sy_true = [&](double x, double y) { return -0.8 + 0.004 * x + 0.009 * y; };
  MotionModel model;
  model.global = {{0.2, -0.3}, {0.0, 0.0}};
  model.kind = LocalModelKind::Total;
  BSplineField f;
  f.lx = 6;
  f.ly = 5;
  f.lt = 4;
  f.hx = static_cast<double>(nx) / (f.lx - 3);
  f.hy = static_cast<double>(ny) / (f.ly - 3);
  f.ht = 2.0 / (f.lt - 3);
  f.cx.resize(static_cast<std::size_t>(f.size()));
  f.cy.resize(f.cx.size());
  for (int n = -1; n <= f.lt - 2; ++n)
    for (int m = -1; m <= f.ly - 2; ++m)
      for (int l = -1; l <= f.lx - 2; ++l) {
        const double x = l * f.hx, y = m * f.hy;  // control point positions: Σ l β(u − l) = u
        f.cx[static_cast<std::size_t>(f.index(n, m, l))] = sx_true(x, y);
        f.cy[static_cast<std::size_t>(f.index(n, m, l))] = sy_true(x, y);
      }
  model.local = f;

  Image<float> frame(Shape::image(nx, ny));
  for (index_t y = 0; y < ny; ++y)
    for (index_t x = 0; x < nx; ++x) frame(x, y) = static_cast<float>(frame_value(static_cast<double>(x), static_cast<double>(y)));
  Image<float> expected(frame.shape());
  for (index_t y = 0; y < ny; ++y)
    for (index_t x = 0; x < nx; ++x) {
      const double xd = static_cast<double>(x), yd = static_cast<double>(y);
      expected(x, y) = static_cast<float>(frame_value(xd - sx_true(xd, yd), yd - sy_true(xd, yd)));
    }
  const FrameShift shift = FrameShift::from_model(model, 1, nx);
  const Vec2 corner = shift.at(static_cast<double>(nx - 1), static_cast<double>(ny - 1));
  const double e_spline = interior_relative_rms(warp_frame(frame.cview(), shift, InterpolationMethod::BSpline3).cview(), expected.cview(), 8);
  const double e_linear = interior_relative_rms(warp_frame(frame.cview(), shift, InterpolationMethod::Bilinear).cview(), expected.cview(), 8);
  std::printf("[ measured ] local field: corner shift (%.4f, %.4f) [%.4f, %.4f]; error bspline3 %.2e, bilinear %.2e\n",
              corner.x, corner.y, sx_true(nx - 1, ny - 1), sy_true(nx - 1, ny - 1), e_spline, e_linear);
  EXPECT_NEAR(corner.x, sx_true(nx - 1, ny - 1), 1e-9);
  EXPECT_NEAR(corner.y, sy_true(nx - 1, ny - 1), 1e-9);
  EXPECT_LT(e_spline, 1e-3);
  EXPECT_LT(e_linear, 2e-2);
  EXPECT_THROW(warp_frame(frame.cview(), shift, InterpolationMethod::Fourier), Error);
}

// The per-pixel path (any field) and the separable constant-shift path evaluate the same
// spline; they differ only by float rounding of the intermediate pass.
TEST(WarpAccuracy, FieldPathEqualsConstantPath) {
  const Image<float> frame = band_limited_noise(96, 80, 0.3, 4);
  for (const Vec2 s : {Vec2{-3.7, 5.2}, Vec2{0.37, -0.81}, Vec2{150.2, -97.6}}) {
    const Image<float> a = warp_frame(frame.cview(), FrameShift::constant(s), InterpolationMethod::BSpline3);
    const Image<float> b =
        warp_frame(frame.cview(), FrameShift::from_field([&](double, double) { return s; }), InterpolationMethod::BSpline3);
    double worst = 0;
    for (index_t i = 0; i < a.size(); ++i) worst = std::max(worst, static_cast<double>(std::abs(a[i] - b[i])));
    std::printf("[ measured ] shift (%.2f, %.2f): max |constant path - field path| = %.2e\n", s.x, s.y, worst);
    EXPECT_LT(worst, 2e-6);
  }
}

} // namespace
} // namespace frost::motion
