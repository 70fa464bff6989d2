// The model's STAR blocks (docs/movie_align.md#the-frost-alignment-star) round-trip (trajectories at
// the patch centres reproduce _frostFittedShiftX/Y), everything is stored in raw pixels with binning 2,
// global-only models, re-referencing to the first frame, the sign of stored shifts, and read errors.
#include <cmath>
#include <random>

#include "frost/core/error.hpp"
#include "frost/metadata/metadata_file.hpp"
#include "frost/motion/bspline_fit.hpp"
#include "frost/motion/model_star.hpp"
#include "frost/motion/patch_grid.hpp"
#include "frost/motion/trajectories.hpp"
#include "frost/test/support.hpp"

namespace frost::motion {
namespace {

/// T1 displacement (docs/movie_align.md#synthetic-movies) [raw px].
Vec2 t1_displacement(double t) {
  return {12 * (1 - std::exp(-t / 4)) + 0.15 * t, -6 * (1 - std::exp(-t / 3)) + 0.1 * t};
}

struct FittedMovie {
  MotionModel model;
  std::vector<PatchMeasurement> measurements;
  BSplineFitResult fit;
};

/// A 1024² raw movie processed at binning 2 (512² processing px), frames 2..21 of 24 aligned,
/// reference index 3, T1 global drift and a doming residual fitted on 5x5 patches.
FittedMovie fitted_movie(double binning = 2.0) {
  const int width = static_cast<int>(1024 / binning), frames = 20, reference = 3;
  FittedMovie f;
  f.model.binning = binning;
  f.model.first_frame = 2;
  f.model.reference = reference;
  // The reference's displacement is taken from the same evaluations as the others: a compiler may
  // fold a call with a constant argument at compile time, one ulp away from the run-time exp.
  std::vector<Vec2> d;
  for (int t = 0; t < frames; ++t) d.push_back(t1_displacement(t));
  const Vec2 dr = d[reference];
  for (int t = 0; t < frames; ++t)
    f.model.global.push_back({-(d[t].x - dr.x) / binning, -(d[t].y - dr.y) / binning});
  PatchGridRequest r;
  r.width = width;
  r.height = width;
  r.patch_size = static_cast<int>(256 / binning);
  r.count_x = 5;
  r.count_y = 5;
  r.global_shifts = f.model.global;
  const PatchGrid grid = make_patch_grid(r);
  std::mt19937 rng(4);
  std::normal_distribution<double> noise(0.0, 0.03);
  for (int t = 0; t < frames; ++t)
    for (int p = 0; p < grid.count(); ++p) {
      const Vec2 c = grid.centre(p);
      const double rx = (c.x - width / 2.0) / (width / 2.0), ry = (c.y - width / 2.0) / (width / 2.0);
      const double s = (3.0 * (t - reference) / 19.0) / binning; // doming relative to the reference
      const double r2 = rx * rx + ry * ry;
      const Vec2 target{-s * rx * r2 / 2 + noise(rng), -s * ry * r2 / 2 + noise(rng)};
      f.measurements.push_back({p, c.x, c.y, double(t), target, 1.0});
    }
  f.fit = fit_bspline_field(f.measurements, BSplineField::make(4, 4, 5, width, width, frames));
  f.model.local = f.fit.field;
  return f;
}

TEST(ModelStar, RoundTripReproducesFittedShiftsInRawPixels) {
  const FittedMovie movie = fitted_movie();
  const MotionModel& model = movie.model;
  test::TempDir dir;
  const std::string path = dir.file("align.star");
  {
    meta::MetadataFile file(meta::Dialect::Relion31);
    write_motion_model(file, model, 24);
    write_local_fit(file, model, movie.measurements, movie.fit);
    file.write(path);
  }
  const meta::MetadataFile file = meta::MetadataFile::read(path);
  ASSERT_GE(file.block_count(), 4u);
  EXPECT_EQ(file.blocks()[0].name(), "general");
  const MotionModel back = read_motion_model(file);

  // The model itself comes back bit-identical (binning 2: scaling by 2 and back is exact).
  EXPECT_EQ(back.binning, 2.0);
  EXPECT_EQ(back.first_frame, 2);
  EXPECT_EQ(back.reference, 3);
  EXPECT_EQ(back.kind, LocalModelKind::Residual);
  ASSERT_EQ(back.frames(), model.frames());
  for (int t = 0; t < model.frames(); ++t) {
    EXPECT_EQ(back.global[t].x, model.global[t].x);
    EXPECT_EQ(back.global[t].y, model.global[t].y);
  }
  ASSERT_TRUE(back.local.has_value());
  EXPECT_EQ(back.local->lx, 4);
  EXPECT_EQ(back.local->lt, 5);
  EXPECT_EQ(back.local->hx, model.local->hx);
  EXPECT_EQ(back.local->ht, model.local->ht);
  EXPECT_EQ(back.local->cx, model.local->cx);
  EXPECT_EQ(back.local->cy, model.local->cy);

  // Stored in raw pixels: global shifts, knot spacing, coefficients and centres are x2.
  const meta::Block& general = file.block("general");
  const meta::Block& global = file.block("global_shift");
  const meta::Block& coefficients = file.block("bspline_coefficients");
  EXPECT_EQ(general.get_double("frostKnotSpacingX"), 2 * model.local->hx);
  EXPECT_EQ(general.get_int("frostReferenceFrame"), 5);
  EXPECT_EQ(global.rows(), 24u);
  EXPECT_EQ(global.get_int("frostEnabled", 1), 0); // frame 1 lies before the aligned range
  EXPECT_EQ(global.get_int("frostEnabled", 2), 1);
  EXPECT_EQ(global.get_int("rlnMicrographFrameNumber", 7), 8);
  EXPECT_EQ(global.get_double("rlnMicrographShiftX", 7), 2 * model.global[5].x);
  EXPECT_EQ(global.get_double("rlnMicrographShiftX", 5), 0.0); // the reference frame
  EXPECT_EQ(coefficients.rows(), 80u);
  EXPECT_EQ(coefficients.get_double("frostCoeffShiftY", 17), 2 * model.local->cy[17]);
  EXPECT_EQ(coefficients.get_int("frostCoeffT", 17), 0); // storage order: 17 = (0+1)·16 + (-1+1)·4 + (0+1)
  EXPECT_EQ(coefficients.get_int("frostCoeffY", 17), -1);
  EXPECT_EQ(coefficients.get_int("frostCoeffX", 17), 0);
  EXPECT_NEAR(general.get_double("frostLocalFitRmsd"), 2 * movie.fit.rmsd, 1e-12);
  std::printf("local fit: rmsd %.4f raw px, |s_loc| 2.5 %% %.4f, 97.5 %% %.4f raw px, %d rejected\n",
              general.get_double("frostLocalFitRmsd"), general.get_double("frostLocalShift2_5"),
              general.get_double("frostLocalShift97_5"), static_cast<int>(general.get_int("frostOutliersLocal")));

  // Trajectories on the patch centres reproduce _frostFittedShiftX/Y.
  const meta::Block& local = file.block("local_shift");
  ASSERT_EQ(local.rows(), movie.measurements.size());
  const auto px = local.doubles("rlnCoordinateX"), py = local.doubles("rlnCoordinateY");
  const auto frame = local.ints("frostFrameIndex");
  const auto fx = local.doubles("frostFittedShiftX"), fy = local.doubles("frostFittedShiftY");
  const auto mx = local.doubles("frostMeasuredShiftX");
  std::vector<Vec2> centres;
  for (int p = 0; p < 25; ++p) centres.push_back({px[static_cast<std::size_t>(p)], py[static_cast<std::size_t>(p)]});
  const auto tracks = trajectories(back, centres);
  double worst = 0, worst_measured = 0;
  for (std::size_t r = 0; r < local.rows(); ++r) {
    const int p = static_cast<int>(r % 25), t = static_cast<int>(frame[r]) - back.first_frame;
    ASSERT_EQ(px[r], centres[static_cast<std::size_t>(p)].x);
    const Vec2 s = tracks[static_cast<std::size_t>(p)][static_cast<std::size_t>(t)];
    worst = std::max({worst, std::abs(s.x - fx[r]), std::abs(s.y - fy[r])});
    worst_measured = std::max(worst_measured, std::abs(s.x - mx[r]));
  }
  // Measured columns are total shifts to apply: global part + the residual target, in raw px.
  const PatchMeasurement& m7 = movie.measurements[7 * 25 + 3];
  EXPECT_EQ(mx[7 * 25 + 3], 2 * (model.global[7].x + m7.shift.x));
  std::printf("trajectories vs _frostFittedShift: max |diff| %.3g raw px (vs measured: %.3g raw px)\n", worst,
              worst_measured);
  EXPECT_LT(worst, 1e-4);
  EXPECT_LT(worst_measured, 0.3); // measured (noisy) total shifts stay close to the fitted ones
  EXPECT_DOUBLE_EQ(px[0], 2 * movie.measurements[0].x);

  // The same motion processed without binning (everything x2 in processing px) reads the same.
  MotionModel unbinned;
  unbinned.binning = 1.0;
  unbinned.first_frame = model.first_frame;
  unbinned.reference = model.reference;
  for (const Vec2& g : model.global) unbinned.global.push_back({2 * g.x, 2 * g.y});
  BSplineField doubled = movie.fit.field;
  doubled.hx *= 2;
  doubled.hy *= 2;
  for (auto& c : doubled.cx) c *= 2;
  for (auto& c : doubled.cy) c *= 2;
  unbinned.local = doubled;
  double worst_bin = 0;
  for (double x : {10.0, 333.3, 700.0, 1013.0})
    for (double t : {0.0, 4.5, 19.0}) {
      const Vec2 a = model.shift_raw(x, 1024 - x, t), b = unbinned.shift_raw(x, 1024 - x, t);
      worst_bin = std::max({worst_bin, std::abs(a.x - b.x), std::abs(a.y - b.y)});
    }
  std::printf("binning 2 vs 1 description of the same motion: max |diff| %.3g raw px\n", worst_bin);
  EXPECT_LT(worst_bin, 1e-9);
}

TEST(ModelStar, GlobalOnlyModelAndStaleCoefficients) {
  FittedMovie movie = fitted_movie(1.0);
  meta::MetadataFile file;
  write_motion_model(file, movie.model);
  ASSERT_NE(file.find("bspline_coefficients"), nullptr);
  movie.model.local.reset();
  movie.model.kind = LocalModelKind::Total;
  write_motion_model(file, movie.model); // re-written as global only
  EXPECT_EQ(file.find("bspline_coefficients"), nullptr);
  EXPECT_EQ(file.block("general").get_string("frostMotionModel"), "global");
  const MotionModel back = read_motion_model(meta::MetadataFile::parse(file.to_string(), "memory"));
  EXPECT_FALSE(back.local.has_value());
  EXPECT_EQ(back.kind, LocalModelKind::Total);
  EXPECT_EQ(back.frames(), 20);
  EXPECT_EQ(back.global[7].y, movie.model.global[7].y);
  EXPECT_EQ(file.block("global_shift").rows(), 20u); // movie_frames 0: aligned frames only
}

TEST(ModelStar, SignOfStoredShiftsAndFirstFrameReference) {
  // Content moving by +1 px per frame in x: displacement d_t = (t, 0), shift to apply -t.
  MotionModel m;
  for (int t = 0; t < 6; ++t) m.global.push_back({-static_cast<double>(t), 0.0});
  meta::MetadataFile file;
  write_motion_model(file, m);
  const meta::MetadataFile parsed = meta::MetadataFile::parse(file.to_string(), "memory");
  const auto sx = parsed.block("global_shift").doubles("rlnMicrographShiftX");
  for (std::size_t t = 1; t < sx.size(); ++t) EXPECT_EQ(sx[t] - sx[t - 1], -1.0);

  // Re-referenced to the first frame, every point's trajectory is exactly zero there.
  const FittedMovie movie = fitted_movie();
  const std::vector<Vec2> points = {{100.0, 900.0}, {512.0, 512.0}, {1000.0, 20.0}};
  const auto plain = trajectories(movie.model, points);
  const auto first = trajectories(movie.model, points, true);
  double worst = 0;
  for (std::size_t p = 0; p < points.size(); ++p) {
    EXPECT_EQ(first[p][0].x, 0.0);
    EXPECT_EQ(first[p][0].y, 0.0);
    for (std::size_t t = 0; t < plain[p].size(); ++t)
      worst = std::max(worst, std::abs(first[p][t].x - (plain[p][t].x - plain[p][0].x)));
  }
  std::printf("frame-0 shift before re-referencing (%.4f, %.4f) raw px, after (%g, %g); consistency %.3g\n",
              plain[1][0].x, plain[1][0].y, first[1][0].x, first[1][0].y, worst);
  EXPECT_GT(std::abs(plain[1][0].x), 1.0); // the model's reference is frame index 3, not 0
  EXPECT_LT(worst, 1e-12);
  // The reference frame of the model itself has zero global shift.
  EXPECT_EQ(movie.model.global[3].x, 0.0);

  const meta::Block block = trajectories_block(movie.model, points, true);
  ASSERT_EQ(block.rows(), 60u);
  EXPECT_EQ(block.get_int("frostFrameIndex", 20), 2); // second point, first aligned frame
  EXPECT_EQ(block.get_double("rlnMicrographShiftX", 20), 0.0);
  EXPECT_EQ(block.get_double("rlnMicrographShiftY", 25), first[1][5].y);
  EXPECT_EQ(block.get_double("rlnCoordinateX", 59), 1000.0);
}

TEST(ModelStar, ReadErrorsNameTheProblem) {
  const FittedMovie movie = fitted_movie();
  meta::MetadataFile file;
  write_motion_model(file, movie.model);
  const std::string text = file.to_string();

  meta::MetadataFile no_global = meta::MetadataFile::parse(text, "a.star");
  no_global.blocks().erase(no_global.blocks().begin() + 1);
  try {
    read_motion_model(no_global);
    FAIL() << "missing data_global_shift accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::Input);
    std::printf("%s\n", e.what());
  }
  meta::MetadataFile short_coefficients = meta::MetadataFile::parse(text, "b.star");
  short_coefficients.block("bspline_coefficients").keep_rows({0, 1, 2});
  EXPECT_THROW(read_motion_model(short_coefficients), Error);
  meta::MetadataFile gap = meta::MetadataFile::parse(text, "c.star");
  gap.block("global_shift").set_int(4, "frostEnabled", 0);
  EXPECT_THROW(read_motion_model(gap), Error);
}

} // namespace
} // namespace frost::motion
