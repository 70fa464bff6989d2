// RELION's third-order polynomial (docs/movie_align.md#relion-and-xmipp-exports) (the --ostar_motion
// local model). The coefficient order is checked against RELION's formula written out term by term;
// an exact polynomial field is recovered to round-off with RMSD 0; a 3-frame movie fits t and t²
// only; the samples taken from a frost model (binned, residual and total kinds) are re-referenced to
// the first aligned frame and in raw pixels, so the polynomial behind a B-spline model comes back.
#include <algorithm>
#include <cmath>
#include <random>

#include "frost/core/error.hpp"
#include "frost/motion/bspline_fit.hpp"
#include "frost/motion/relion_polynomial.hpp"
#include "frost/test/support.hpp"

namespace frost::motion {
namespace {

/// Coefficients whose terms each reach about `size` px at t = frames, |x'|, |y'| = 0.5.
RelionPolynomial random_polynomial(std::uint32_t seed, double frames, double size) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  RelionPolynomial p;
  for (std::size_t i = 0; i < 18; ++i) {
    const double tp = std::pow(frames, static_cast<double>(i % 3 + 1));
    p.cx[i] = size * u(rng) / tp;
    p.cy[i] = size * u(rng) / tp;
  }
  return p;
}

std::vector<PolynomialSample> grid_samples(const RelionPolynomial& p, int frames, int grid) {
  std::vector<PolynomialSample> out;
  for (int t = 0; t < frames; ++t)
    for (int j = 0; j < grid; ++j)
      for (int i = 0; i < grid; ++i) {
        PolynomialSample s;
        s.t = t;
        s.xn = (i + 0.5) / grid - 0.5;
        s.yn = (j + 0.5) / grid - 0.5;
        s.shift = p.evaluate(s.t, s.xn, s.yn);
        out.push_back(s);
      }
  return out;
}

/// max |a - b| over both axes, relative to max |b|.
double relative_coefficient_error(const RelionPolynomial& a, const RelionPolynomial& b) {
  double err = 0, scale = 0;
  for (std::size_t i = 0; i < 18; ++i) {
    err = std::max({err, std::abs(a.cx[i] - b.cx[i]), std::abs(a.cy[i] - b.cy[i])});
    scale = std::max({scale, std::abs(b.cx[i]), std::abs(b.cy[i])});
  }
  return err / scale;
}

// RELION's getShiftAt written out (coefficient 3k + p multiplies z^(p+1) times monomial k of
// 1, x, x², y, y², xy): a mix-up of the order gives a different value.
TEST(RelionPolynomial, CoefficientOrderIsRelions) {
  RelionPolynomial p;
  for (std::size_t i = 0; i < 18; ++i) {
    p.cx[i] = 0.1 * static_cast<double>(i + 1);
    p.cy[i] = -0.07 * static_cast<double>(i + 2);
  }
  const double z = 2.5, x = 0.31, y = -0.17;
  const double z2 = z * z, z3 = z2 * z, x2 = x * x, y2 = y * y, xy = x * y;
  auto relion = [&](const std::array<double, 18>& c) {
    return (c[0] * z + c[1] * z2 + c[2] * z3) + (c[3] * z + c[4] * z2 + c[5] * z3) * x +
           (c[6] * z + c[7] * z2 + c[8] * z3) * x2 + (c[9] * z + c[10] * z2 + c[11] * z3) * y +
           (c[12] * z + c[13] * z2 + c[14] * z3) * y2 + (c[15] * z + c[16] * z2 + c[17] * z3) * xy;
  };
  const Vec2 s = p.evaluate(z, x, y);
  EXPECT_NEAR(s.x, relion(p.cx), 1e-12);
  EXPECT_NEAR(s.y, relion(p.cy), 1e-12);
  EXPECT_EQ(p.evaluate(0.0, x, y).x, 0.0); // no constant term in time
}

TEST(RelionPolynomial, ExactPolynomialIsRecovered) {
  const int frames = 24;
  const RelionPolynomial truth = random_polynomial(7, frames - 1, 1.5);
  const RelionPolynomialFit fit = fit_relion_polynomial(grid_samples(truth, frames, 16));
  const double rel = relative_coefficient_error(fit.polynomial, truth);
  std::printf("exact polynomial, %d samples: coefficient error %.2e relative, RMSD %.2e px\n", fit.samples, rel,
              fit.rmsd);
  EXPECT_EQ(fit.samples, frames * 256);
  EXPECT_EQ(fit.time_degree, 3);
  EXPECT_LE(rel, 1e-6);
  EXPECT_LE(fit.rmsd, 1e-9);
  EXPECT_LE(std::max(fit.rmsd_x, fit.rmsd_y), fit.rmsd);
}

// A field outside the model (a sine in x) leaves a residual that the RMSD reports.
TEST(RelionPolynomial, RmsdReportsWhatThePolynomialCannotFollow) {
  std::vector<PolynomialSample> samples = grid_samples(RelionPolynomial{}, 10, 16);
  for (PolynomialSample& s : samples) s.shift.x = 0.5 * s.t / 9.0 * std::sin(12.0 * s.xn);
  const RelionPolynomialFit fit = fit_relion_polynomial(samples);
  std::printf("sine field: RMSD x %.4f px, y %.2e px\n", fit.rmsd_x, fit.rmsd_y);
  EXPECT_GT(fit.rmsd_x, 0.01);
  EXPECT_LE(fit.rmsd_y, 1e-12);
}

// Three aligned frames give two non-zero times: t³ is not determined, so the fit keeps t and t².
TEST(RelionPolynomial, ThreeFramesFitTwoTimePowers) {
  RelionPolynomial truth = random_polynomial(11, 2, 1.0);
  for (std::size_t i = 2; i < 18; i += 3) truth.cx[i] = truth.cy[i] = 0.0;
  const RelionPolynomialFit fit = fit_relion_polynomial(grid_samples(truth, 3, 16));
  EXPECT_EQ(fit.time_degree, 2);
  EXPECT_LE(relative_coefficient_error(fit.polynomial, truth), 1e-6);
  EXPECT_LE(fit.rmsd, 1e-9);
}

TEST(RelionPolynomial, TooFewPositionsIsAnError) {
  std::vector<PolynomialSample> samples;
  for (int t = 0; t < 6; ++t)
    for (double x : {-0.25, 0.25}) // two distinct x: x'² is not determined
      for (double y : {-0.3, 0.0, 0.3}) samples.push_back({double(t), x, y, {0.1 * t, 0.0}});
  EXPECT_THROW(fit_relion_polynomial(samples), Error);
}

/// A frost model whose local part, re-referenced to the first aligned frame, is `truth`: global
/// shifts non-zero at t = 0, a time-constant offset q(x, y) in the field (removed by the
/// re-referencing), binning 2 (field in processing px, samples in raw px). Total kind: the field
/// also carries the global shifts, a cubic in t so that the B-spline reproduces it.
MotionModel model_for(const RelionPolynomial& truth, LocalModelKind kind, double width, double height, int frames) {
  MotionModel m;
  m.binning = 2.0;
  m.kind = kind;
  m.first_frame = 3;
  auto global = [](double t) { return Vec2{0.7 - 0.9 * t + 0.02 * t * t, -0.4 + 0.5 * t - 0.003 * t * t * t}; };
  for (int t = 0; t < frames; ++t) m.global.push_back(global(t));
  const double wb = width / m.binning, hb = height / m.binning;
  std::vector<PatchMeasurement> measurements;
  int patch = 0;
  for (int j = 0; j < 11; ++j)
    for (int i = 0; i < 11; ++i, ++patch)
      for (int t = 0; t < frames; ++t) {
        const double xb = (i + 0.5) * wb / 11, yb = (j + 0.5) * hb / 11;
        const double xn = xb / wb - 0.5, yn = yb / hb - 0.5;
        const Vec2 local = truth.evaluate(t, xn, yn);            // raw px
        const Vec2 q{0.3 + 0.8 * xn * yn, -0.2 + 0.5 * yn * yn}; // raw px, constant in time
        Vec2 target{(local.x + q.x) / m.binning, (local.y + q.y) / m.binning};
        if (kind == LocalModelKind::Total) {
          target.x += global(t).x;
          target.y += global(t).y;
        }
        measurements.push_back({patch, xb, yb, static_cast<double>(t), target, 1.0});
      }
  const BSplineFitResult fit = fit_bspline_field(measurements, BSplineField::make(5, 5, 5, wb, hb, frames));
  EXPECT_LE(fit.rmsd, 1e-8) << "the B-spline does not reproduce the test field";
  m.local = fit.field;
  return m;
}

TEST(RelionPolynomial, SamplesOfAModelAreReReferencedRawPixels) {
  const double width = 720, height = 512;
  const int frames = 12;
  const RelionPolynomial truth = random_polynomial(5, frames - 1, 2.0);
  for (LocalModelKind kind : {LocalModelKind::Residual, LocalModelKind::Total}) {
    const MotionModel m = model_for(truth, kind, width, height, frames);
    const std::vector<PolynomialSample> samples = relion_polynomial_samples(m, width, height);
    ASSERT_EQ(samples.size(), static_cast<std::size_t>(frames * 256));
    EXPECT_NEAR(samples.front().xn, 0.5 / 16 - 0.5, 1e-15); // cell centres of a 16 x 16 grid
    double at_first = 0;
    for (const PolynomialSample& s : samples)
      if (s.t == 0) at_first = std::max({at_first, std::abs(s.shift.x), std::abs(s.shift.y)});
    EXPECT_EQ(at_first, 0.0);
    const RelionPolynomialFit fit = fit_relion_polynomial(samples);
    const double rel = relative_coefficient_error(fit.polynomial, truth);
    std::printf("%s model, bin 2: coefficient error %.2e relative, RMSD %.2e px\n",
                kind == LocalModelKind::Residual ? "residual" : "total", rel, fit.rmsd);
    EXPECT_LE(rel, 1e-6);
    EXPECT_LE(fit.rmsd, 1e-6);
  }
  MotionModel global_only;
  global_only.global = {{0, 0}, {1, 1}, {2, 2}};
  EXPECT_TRUE(relion_polynomial_samples(global_only, width, height).empty());
}

} // namespace
} // namespace frost::motion
