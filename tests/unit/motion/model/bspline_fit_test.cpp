// The B-spline coefficient fit (docs/movie_align.md#fitting-the-coefficients). Noise-free tensor polynomials
// of degree <= 3 in x, y and t are reproduced (L >= 4); gross outliers are rejected by the robust rounds;
// rank-deficient grids are regularised by the second-difference ridge; diagnostics (RMSD, percentiles).
#include <cmath>
#include <functional>
#include <random>

#include "frost/core/error.hpp"
#include "frost/motion/bspline_fit.hpp"
#include "frost/motion/patch_grid.hpp"
#include "frost/test/support.hpp"

namespace frost::motion {
namespace {

using Field = std::function<Vec2(double, double, double)>;

/// One measurement per patch centre of an nx x ny grid and frame, target `truth`.
std::vector<PatchMeasurement> sample(int width, int height, int nx, int ny, int frames, const Field& truth) {
  PatchGridRequest request;
  request.width = width;
  request.height = height;
  request.patch_size = std::min(width / nx, height / ny) & ~1;
  request.count_x = nx;
  request.count_y = ny;
  const PatchGrid grid = make_patch_grid(request);
  std::vector<PatchMeasurement> out;
  for (int t = 0; t < frames; ++t)
    for (int p = 0; p < grid.count(); ++p) {
      const Vec2 c = grid.centre(p);
      out.push_back({p, c.x, c.y, static_cast<double>(t), truth(c.x, c.y, t), 1.0});
    }
  return out;
}

/// Random tensor polynomial sum a_ijk xi^i eta^j tau^k, i, j, k <= 3, on normalised coordinates.
Field random_cubic(std::uint32_t seed, double width, double height, double frames) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> a(-0.6, 0.6);
  std::vector<double> ax(64), ay(64);
  for (auto& v : ax) v = a(rng);
  for (auto& v : ay) v = a(rng);
  return [=](double x, double y, double t) {
    const double xi = x / width - 0.3, eta = y / height - 0.6, tau = t / frames - 0.2;
    const double px[4] = {1, xi, xi * xi, xi * xi * xi}, py[4] = {1, eta, eta * eta, eta * eta * eta},
                 pt[4] = {1, tau, tau * tau, tau * tau * tau};
    double sx = 0, sy = 0;
    for (int i = 0; i < 4; ++i)
      for (int j = 0; j < 4; ++j)
        for (int k = 0; k < 4; ++k) {
          const double term = px[i] * py[j] * pt[k] * 4.0;
          sx += ax[static_cast<std::size_t>(16 * i + 4 * j + k)] * term;
          sy += ay[static_cast<std::size_t>(16 * i + 4 * j + k)] * term;
        }
    return Vec2{sx, sy};
  };
}

/// Largest |field - truth| over random points of the frame and frame range.
double max_error(const BSplineField& f, const Field& truth, double width, double height, int frames,
                 std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> ux(0.0, width), uy(0.0, height), ut(0.0, frames - 1.0);
  double worst = 0;
  for (int i = 0; i < 3000; ++i) {
    const double x = ux(rng), y = uy(rng), t = ut(rng);
    const Vec2 v = f.evaluate(x, y, t), e = truth(x, y, t);
    worst = std::max({worst, std::abs(v.x - e.x), std::abs(v.y - e.y)});
  }
  return worst;
}

TEST(BSplineFit, ReproducesCubicPolynomialsWithFourOrMoreControlPoints) {
  const int width = 1000, height = 800, frames = 20;
  struct Case { int lx, ly, lt; };
  for (const Case c : {Case{4, 4, 4}, Case{5, 6, 5}, Case{7, 6, 8}}) {
    for (std::uint32_t seed : {1u, 2u, 3u}) {
      const Field truth = random_cubic(seed, width, height, frames);
      const auto m = sample(width, height, 10, 9, frames, truth);
      const BSplineField grid = BSplineField::make(c.lx, c.ly, c.lt, width, height, frames);
      const BSplineFitResult fit = fit_bspline_field(m, grid);
      const double err = max_error(fit.field, truth, width, height, frames, seed + 100);
      std::printf("L %dx%dx%d seed %u: max error %.3g px, rmsd %.3g px, rank %d/%d, rejected %d\n", c.lx, c.ly,
                  c.lt, seed, err, fit.rmsd, fit.rank, grid.size(), fit.rejected);
      EXPECT_LT(err, 1e-4);
      EXPECT_EQ(fit.rejected, 0);
      EXPECT_FALSE(fit.regularised);
      EXPECT_EQ(fit.rank, grid.size());
    }
  }
}

TEST(BSplineFit, RejectsGrossOutliers) {
  const int width = 1024, height = 1024, frames = 20;
  const Field truth = [](double x, double y, double t) {
    const double rx = (x - 512) / 512, ry = (y - 512) / 512, s = 1.5 * t / 19.0;
    return Vec2{-s * rx * (rx * rx + ry * ry) / 2 + 0.02 * t, -s * ry * (rx * rx + ry * ry) / 2};
  };
  for (std::uint32_t seed : {11u, 12u, 13u}) {
    auto m = sample(width, height, 7, 7, frames, truth);
    std::mt19937 rng(seed);
    std::normal_distribution<double> noise(0.0, 0.05);
    std::uniform_real_distribution<double> u(0.0, 1.0);
    std::vector<bool> corrupted(m.size(), false);
    int n_corrupted = 0;
    for (std::size_t i = 0; i < m.size(); ++i) {
      m[i].shift.x += noise(rng);
      m[i].shift.y += noise(rng);
      if (u(rng) < 0.05) { // 5 % gross errors of 5..15 px on x, y or both
        const double size = (5.0 + 10.0 * u(rng)) * (u(rng) < 0.5 ? -1 : 1);
        const double which = u(rng);
        if (which < 0.4) m[i].shift.x += size;
        else if (which < 0.8) m[i].shift.y += size;
        else {
          m[i].shift.x += size;
          m[i].shift.y -= size;
        }
        corrupted[i] = true;
        ++n_corrupted;
      }
    }
    const BSplineField grid = BSplineField::make(5, 5, 5, width, height, frames);
    const BSplineFitResult fit = fit_bspline_field(m, grid);
    int caught = 0, clean_rejected = 0;
    for (std::size_t i = 0; i < m.size(); ++i) {
      if (corrupted[i] && fit.outlier[i]) ++caught;
      if (!corrupted[i] && fit.outlier[i]) ++clean_rejected;
    }
    BSplineFitOptions plain;
    plain.outlier_rounds = 0;
    const BSplineFitResult naive = fit_bspline_field(m, grid, plain);
    double rms = 0, rms_naive = 0;
    int count = 0;
    for (double y = 100; y <= 924; y += 103)
      for (double x = 100; x <= 924; x += 103)
        for (int t = 0; t < frames; ++t) {
          const Vec2 e = truth(x, y, t), a = fit.field.evaluate(x, y, t), b = naive.field.evaluate(x, y, t);
          rms += (a.x - e.x) * (a.x - e.x) + (a.y - e.y) * (a.y - e.y);
          rms_naive += (b.x - e.x) * (b.x - e.x) + (b.y - e.y) * (b.y - e.y);
          ++count;
        }
    rms = std::sqrt(rms / count);
    rms_naive = std::sqrt(rms_naive / count);
    std::printf("seed %u: %d/%d outliers caught, %d clean rejected of %zu, rounds %d, rmsd %.4f px, field rms "
                "%.4f px (plain LS %.4f px)\n",
                seed, caught, n_corrupted, clean_rejected, m.size(), fit.rounds, fit.rmsd, rms, rms_naive);
    EXPECT_EQ(caught, n_corrupted);
    EXPECT_LT(clean_rejected, static_cast<int>(m.size()) / 20);
    EXPECT_EQ(fit.rejected, caught + clean_rejected);
    EXPECT_LT(rms, 0.03);
    EXPECT_GT(rms_naive, 3 * rms);
    EXPECT_GT(fit.rmsd, 0.04); // ~0.05·sqrt(2) noise left in the accepted equations
    EXPECT_LT(fit.rmsd, 0.09);
  }
}

TEST(BSplineFit, RankDeficientGridUsesRidgeAndKeepsMultilinearFields) {
  // 3x3 patches for 6x6 spatial control points: 9 positions cannot fix 36 spatial coefficients.
  const int width = 900, height = 900, frames = 12;
  const Field truth = [](double x, double y, double t) {
    return Vec2{0.3 + 0.002 * x - 0.001 * y + 3e-6 * x * y * (1 + 0.1 * t), -0.5 + 0.05 * t - 1e-6 * x * y * t};
  };
  const auto m = sample(width, height, 3, 3, frames, truth);
  const BSplineField grid = BSplineField::make(6, 6, 5, width, height, frames);
  const BSplineFitResult fit = fit_bspline_field(m, grid);
  const double err = max_error(fit.field, truth, width, height, frames, 7);
  std::printf("3x3 patches, L 6x6x5: rank %d/%d, regularised %d (lambda %g), max error %.3g px, %zu warnings\n",
              fit.rank, grid.size(), fit.regularised, fit.lambda, err, fit.warnings.size());
  for (const auto& w : fit.warnings) std::printf("  warning: %s\n", w.c_str());
  EXPECT_LT(fit.rank, grid.size());
  EXPECT_TRUE(fit.regularised);
  EXPECT_EQ(fit.warnings.size(), 2u); // more control points than patches; ridge added
  EXPECT_LT(err, 1e-6); // multilinear fields are in the null space of the second differences
}

TEST(BSplineFit, CubicDataOnDeficientGridStaysClose) {
  const int width = 900, height = 900, frames = 12;
  const Field truth = random_cubic(5, width, height, frames);
  const auto m = sample(width, height, 4, 4, frames, truth);
  const BSplineFitResult fit = fit_bspline_field(m, BSplineField::make(6, 6, 5, width, height, frames));
  std::printf("4x4 patches, L 6x6x5, cubic data: regularised %d, rmsd at the patches %.3g px\n", fit.regularised,
              fit.rmsd);
  EXPECT_TRUE(fit.regularised);
  EXPECT_LT(fit.rmsd, 0.02); // the automatic ridge hardly pulls the fit away from the data
}

TEST(BSplineFit, OverlappingPatchesKeepCornerControlPointsBounded) {
  // Regression: 7x7 patches of 500 px on 1024 px (centres 255.5..765.5) with 6x6x5 control points
  // (knots every 341 px). The outer control points' bases barely reach the patch centres: A^T W A
  // is full rank, but without a ridge 0.03 px of noise put the corners at 1000+ px.
  const int size = 1024, frames = 20;
  PatchGridRequest request;
  request.width = size;
  request.height = size;
  request.patch_size = 500;
  request.count_x = 7;
  request.count_y = 7;
  request.global_shifts = {{0, 0}, {-3, 1}, {-6, 2}}; // a 6 px / 2 px border as in a real run
  const PatchGrid patches = make_patch_grid(request);
  // Trilinear truth (in the null space of the second differences), at most 0.6 px.
  const Field truth = [&](double x, double y, double t) {
    const double u = x / size - 0.5, v = y / size - 0.5, tau = t / frames;
    return Vec2{tau * (0.3 + 0.4 * u - 0.2 * v), tau * (-0.2 + 0.8 * u * v)};
  };
  std::mt19937 rng(3);
  std::normal_distribution<double> noise(0.0, 0.03);
  std::vector<PatchMeasurement> m;
  double largest = 0;
  for (int t = 0; t < frames; ++t)
    for (int p = 0; p < patches.count(); ++p) {
      const Vec2 c = patches.centre(p);
      Vec2 target = truth(c.x, c.y, t);
      target.x += noise(rng);
      target.y += noise(rng);
      largest = std::max(largest, std::hypot(target.x, target.y));
      m.push_back({p, c.x, c.y, static_cast<double>(t), target, 1.0});
    }
  const BSplineField grid = BSplineField::make(6, 6, 5, size, size, frames);
  const BSplineFitResult fit = fit_bspline_field(m, grid);
  const double lo = patches.centre(0).x, hi = patches.centre(patches.count() - 1).x;
  double worst = 0, worst_error = 0, worst_inside = 0;
  for (int t = 0; t < frames; ++t)
    for (int i = 0; i <= 16; ++i)
      for (int j = 0; j <= 16; ++j) { // includes the four corners
        const double x = size * i / 16.0, y = size * j / 16.0;
        const Vec2 v = fit.field.evaluate(x, y, t), e = truth(x, y, t);
        const double error = std::hypot(v.x - e.x, v.y - e.y);
        worst = std::max(worst, std::hypot(v.x, v.y));
        worst_error = std::max(worst_error, error);
        if (x >= lo && x <= hi && y >= lo && y <= hi) worst_inside = std::max(worst_inside, error);
      }
  std::printf("7x7 patches of 500 px, L 6x6x5: max |field| %.3g px (max |measurement| %.3g px), max error %.3g px "
              "(%.3g px within the patch centres), rmsd %.3g px, rank %d/%d, regularised %d\n",
              worst, largest, worst_error, worst_inside, fit.rmsd, fit.rank, grid.size(), fit.regularised);
  for (const auto& w : fit.warnings) std::printf("  warning: %s\n", w.c_str());
  EXPECT_EQ(fit.rank, grid.size()); // not caught by the rank check...
  EXPECT_TRUE(fit.regularised);     // ...but by the weak-pivot check
  EXPECT_LT(worst, 3 * largest); // was over 1000 px
  EXPECT_LT(worst_inside, 0.1);
  EXPECT_LT(worst_error, 1.0); // the corners lie 255 px beyond the outermost centres: noise extrapolated
  EXPECT_LT(fit.rmsd, 0.06); // the fit at the patches still follows the data (noise 0.03·sqrt(2))
}

TEST(BSplineFit, ExplicitLambdaSmoothsTheFit) {
  const int width = 1000, height = 800, frames = 20;
  const Field truth = random_cubic(9, width, height, frames);
  const auto m = sample(width, height, 10, 9, frames, truth);
  const BSplineField grid = BSplineField::make(6, 6, 5, width, height, frames);
  BSplineFitOptions o;
  o.outlier_rounds = 0;
  o.lambda = 1.0;
  const BSplineFitResult smooth = fit_bspline_field(m, grid, o);
  const BSplineFitResult exact = fit_bspline_field(m, grid);
  std::printf("lambda 1: rmsd %.4f px, regularised %d; lambda 0: rmsd %.3g px\n", smooth.rmsd, smooth.regularised,
              exact.rmsd);
  EXPECT_TRUE(smooth.regularised);
  EXPECT_FALSE(exact.regularised);
  EXPECT_GT(smooth.rmsd, 10 * exact.rmsd + 1e-3);
}

TEST(BSplineFit, SinglePatchGivesSpatiallyFlatField) {
  const int width = 600, height = 600, frames = 15;
  const Field truth = [](double, double, double t) { return Vec2{-0.4 * t, 0.1 * t - 1.0}; };
  PatchGridRequest r;
  r.width = width;
  r.height = height;
  r.requested_size = 700; // one patch per axis
  r.patch_size = 512;
  const PatchGrid g = make_patch_grid(r);
  ASSERT_EQ(g.count(), 1);
  std::vector<PatchMeasurement> m;
  for (int t = 0; t < frames; ++t) m.push_back({0, g.centre(0).x, g.centre(0).y, double(t), truth(0, 0, t), 1.0});
  const BSplineFitResult fit = fit_bspline_field(m, BSplineField::make(4, 4, 5, width, height, frames));
  double worst = 0;
  for (double x : {0.0, 300.0, 600.0})
    for (double y : {0.0, 450.0, 600.0})
      for (int t = 0; t < frames; ++t) {
        const Vec2 v = fit.field.evaluate(x, y, t), e = truth(x, y, t);
        worst = std::max({worst, std::abs(v.x - e.x), std::abs(v.y - e.y)});
      }
  std::printf("single patch: max deviation from the measured track over the frame %.3g px (%zu warnings)\n", worst,
              fit.warnings.size());
  EXPECT_LT(worst, 1e-4);
}

TEST(BSplineFit, PercentilesAndErrors) {
  std::vector<double> v;
  for (int i = 101; i >= 1; --i) v.push_back(i);
  EXPECT_DOUBLE_EQ(percentile(v, 2.5), 3.5);
  EXPECT_DOUBLE_EQ(percentile(v, 97.5), 98.5);
  EXPECT_DOUBLE_EQ(percentile(v, 0), 1.0);
  EXPECT_DOUBLE_EQ(percentile(v, 100), 101.0);
  EXPECT_EQ(percentile({}, 50), 0.0);

  // |s_loc| = 5 everywhere: both stored percentiles are 5.
  const auto m = sample(800, 800, 6, 6, 10, [](double, double, double) { return Vec2{3.0, -4.0}; });
  const BSplineFitResult fit = fit_bspline_field(m, BSplineField::make(4, 4, 4, 800, 800, 10));
  std::printf("constant (3, -4): percentiles %.12g %.12g, rmsd %.3g\n", fit.shift_p2_5, fit.shift_p97_5, fit.rmsd);
  EXPECT_NEAR(fit.shift_p2_5, 5.0, 1e-9);
  EXPECT_NEAR(fit.shift_p97_5, 5.0, 1e-9);
  EXPECT_LT(fit.rmsd, 1e-9);

  std::vector<PatchMeasurement> none = m;
  for (auto& p : none) p.weight = 0;
  EXPECT_THROW(fit_bspline_field(none, BSplineField::make(4, 4, 4, 800, 800, 10)), Error);
}

} // namespace
} // namespace frost::motion
