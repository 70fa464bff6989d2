// Patch windows, integer offsets with their rounding residuals, patch stacks
// (docs/movie_align.md#patch-stacks-and-the-rounding-correction), the fit targets, and the local
// stage on a small global-only movie: rounding correction, fallback to the global model,
// independence from the thread count.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

#include "frost/core/error.hpp"
#include "frost/core/threads.hpp"
#include "frost/motion/local_alignment.hpp"
#include "frost/motion/local_measurements.hpp"
#include "frost/simulate/movie.hpp"

namespace frost::motion {
namespace {

TEST(PatchWindow, SlidingWindowClippedAtTheEnds) {
  EXPECT_EQ(patch_window(0, 20, 3).first, 0);
  EXPECT_EQ(patch_window(0, 20, 3).last, 1);
  EXPECT_EQ(patch_window(5, 20, 3).first, 4);
  EXPECT_EQ(patch_window(5, 20, 3).last, 6);
  EXPECT_EQ(patch_window(19, 20, 3).first, 18);
  EXPECT_EQ(patch_window(19, 20, 3).last, 19);
  EXPECT_EQ(patch_window(7, 20, 1).size(), 1);
  EXPECT_EQ(patch_window(7, 20, 1).first, 7);
  // Even windows reach further forward: a = 4 -> t-1 ... t+2.
  EXPECT_EQ(patch_window(7, 20, 4).first, 6);
  EXPECT_EQ(patch_window(7, 20, 4).last, 9);
  EXPECT_THROW(patch_window(0, 20, 0), Error);
}

TEST(PatchOffsets, DisplacementIsMinusShiftSplitIntoIntegerAndResidual) {
  // Shifts to apply s; displacements d = -s.
  const std::vector<Vec2> shifts{{0, 0}, {-2.4, 1.6}, {-5.5, 0.2}, {3.49, -7.51}};
  const PatchOffsets o = patch_offsets(shifts, 3);
  EXPECT_EQ(o.x[1], 2);
  EXPECT_EQ(o.y[1], -2);
  EXPECT_NEAR(o.residual[1].x, 0.4, 1e-12);
  EXPECT_NEAR(o.residual[1].y, 0.4, 1e-12);
  EXPECT_EQ(o.x[2], 6); // 5.5 rounds away from zero
  EXPECT_NEAR(o.residual[2].x, -0.5, 1e-12);
  EXPECT_EQ(o.x[3], -3);
  EXPECT_EQ(o.y[3], 8);
  // Window means: frame 0 averages frames 0-1, frame 1 frames 0-2, frame 3 frames 2-3.
  EXPECT_NEAR(o.window_mean_residual[0].x, (0.0 + 0.4) / 2, 1e-12);
  EXPECT_NEAR(o.window_mean_residual[1].x, (0.0 + 0.4 - 0.5) / 3, 1e-12);
  EXPECT_NEAR(o.window_mean_residual[3].y, (-0.2 + -0.49) / 2, 1e-12);
}

TEST(PatchStack, SumsTheWindowAtIntegerOffsetsAndClampsAtTheEdge) {
  const index_t w = 40, h = 30;
  const int n = 4;
  Image<float> movie(Shape::image(w, h, n));
  for (int f = 0; f < n; ++f)
    for (index_t y = 0; y < h; ++y)
      for (index_t x = 0; x < w; ++x) movie(x, y, 0, f) = static_cast<float>(1000 * f + 10 * y + x) * 0.01f;
  std::vector<View<const float>> frames;
  for (int f = 0; f < n; ++f) frames.push_back(movie.cview().item(f));
  const std::vector<Vec2> shifts{{0, 0}, {-1.2, 0.0}, {-2.0, 2.7}, {-3.0, 1.0}};
  const PatchOffsets o = patch_offsets(shifts, 3);
  auto expected = [&](int t, index_t u, index_t v, index_t x0, index_t y0) {
    const FrameWindow win = patch_window(t, n, 3);
    float s = 0;
    for (int f = win.first; f <= win.last; ++f) {
      const index_t x = std::clamp<index_t>(x0 + u + o.x[static_cast<std::size_t>(f)], 0, w - 1);
      const index_t y = std::clamp<index_t>(y0 + v + o.y[static_cast<std::size_t>(f)], 0, h - 1);
      s += movie(x, y, 0, f);
    }
    return s;
  };
  Image<float> stack(Shape::image(8, 8, n));
  int checked = 0;
  for (index_t x0 : {index_t(5), index_t(0), index_t(36)}) { // inside, left edge, beyond the right edge
    fill_patch_stack(frames, o, static_cast<int>(x0), 4, stack.view());
    for (int t = 0; t < n; ++t)
      for (index_t v = 0; v < 8; ++v)
        for (index_t u = 0; u < 8; ++u) {
          ASSERT_FLOAT_EQ(stack(u, v, 0, t), expected(t, u, v, x0, 4)) << "x0 " << x0 << " t " << t;
          ++checked;
        }
  }
  EXPECT_EQ(checked, 3 * n * 64);
}

TEST(LocalFitTargets, ResidualIsMinusLTotalIsGlobalShiftMinusL) {
  PatchTrack track;
  track.patch = 3;
  track.centre = {100.5, 50.5};
  track.residual = {{0, 0}, {0.25, -0.5}};
  const std::vector<Vec2> global{{0, 0}, {-4, 2}};
  const auto residual = local_fit_targets({track}, global, LocalModelKind::Residual);
  ASSERT_EQ(residual.size(), 2u);
  EXPECT_EQ(residual[1].patch, 3);
  EXPECT_EQ(residual[1].x, 100.5);
  EXPECT_EQ(residual[1].t, 1.0);
  EXPECT_EQ(residual[1].shift.x, -0.25);
  EXPECT_EQ(residual[1].shift.y, 0.5);
  const auto total = local_fit_targets({track}, global, LocalModelKind::Total);
  // D = d + L with d = -s: the total shift to apply is -D = s - L.
  EXPECT_EQ(total[1].shift.x, -4.25);
  EXPECT_EQ(total[1].shift.y, 2.5);
}

TEST(PatchWorkingSize, FastOrExactAndNeverAboveTheFrame) {
  EXPECT_EQ(patch_working_size(256, FftSizeRule::Fast, 1024), 256);
  EXPECT_EQ(patch_working_size(500.0 / 1.3, FftSizeRule::Exact, 4096), 386);
  EXPECT_EQ(patch_working_size(500.0 / 1.3, FftSizeRule::Fast, 4096), 392);
  EXPECT_EQ(patch_working_size(250, FftSizeRule::Fast, 251), 250);
  EXPECT_THROW(patch_working_size(0, FftSizeRule::Fast, 100), Error);
}

// A small global-only movie (T1, 512² x 12, noise-free): the true local residual is zero, so
// every patch measurement error is the rounding bookkeeping of the patch stacks.
const sim::SimulatedMovie& global_movie() {
  static const sim::SimulatedMovie m = [] {
    sim::MovieSetup s;
    s.nx = s.ny = 512;
    s.frames = 12;
    s.noise_free = true;
    s.trajectory = sim::TrajectoryKind::T1;
    return sim::simulate_movie(s);
  }();
  return m;
}

LocalSettings small_settings() {
  LocalSettings s;
  s.correlation.pixel_size = 1.0;
  s.correlation.max_resolution = 30;
  s.correlation.max_shift = 50;
  s.min_local_resolution = 256;
  s.patches_x = s.patches_y = 2;
  s.control_points = {4, 4, 4};
  return s;
}

double rms_residual(const LocalAlignment& a) {
  double ss = 0;
  int n = 0;
  for (const PatchTrack& p : a.patches)
    for (const Vec2& l : p.residual) {
      ss += l.x * l.x + l.y * l.y;
      ++n;
    }
  return std::sqrt(ss / n);
}

TEST(LocalAlignmentSmall, RoundingCorrectionFallbackAndThreadIndependence) {
  const sim::SimulatedMovie& m = global_movie();
  const GlobalAlignment g = align_global(m.frames.cview(), small_settings().correlation);
  const LocalAlignment a = align_local(m.frames.cview(), g, small_settings());
  LocalSettings off = small_settings();
  off.rounding_correction = false;
  const LocalAlignment b = align_local(m.frames.cview(), g, off);
  const double with = rms_residual(a), without = rms_residual(b);
  std::printf("global-only T1 512^2x12: patch residual rms %.4f px with the rounding correction, %.4f px without; "
              "patch size %d, correlation %lldx%lld, fit rmsd %.4f px\n",
              with, without, a.grid.size, static_cast<long long>(a.patch_sizes.correlation.x),
              static_cast<long long>(a.patch_sizes.correlation.y), a.fit ? a.fit->rmsd : -1.0);
  EXPECT_EQ(a.grid.count(), 4);
  EXPECT_EQ(a.grid.size, 256);
  EXPECT_LT(with, 0.03);
  EXPECT_GT(without, 2 * with);
  ASSERT_TRUE(a.model.local.has_value());
  EXPECT_FALSE(a.fell_back);
  EXPECT_EQ(a.model.reference, g.reference);
  EXPECT_EQ(a.measurements.size(), 4u * 12u);
  for (const PatchTrack& p : a.patches) { // gauge: L = 0 at the reference frame
    EXPECT_EQ(p.residual[static_cast<std::size_t>(g.reference)].x, 0.0);
    EXPECT_EQ(p.residual[static_cast<std::size_t>(g.reference)].y, 0.0);
  }

  LocalSettings strict = small_settings();
  strict.max_local_rmsd = 1e-9;
  const LocalAlignment c = align_local(m.frames.cview(), g, strict);
  EXPECT_TRUE(c.fell_back);
  EXPECT_FALSE(c.model.local.has_value());
  EXPECT_NE(c.fallback_reason.find("--max-local-rmsd"), std::string::npos) << c.fallback_reason;
  EXPECT_EQ(c.model.global.size(), 12u);

  const int threads = num_threads();
  set_num_threads(1);
  const LocalAlignment d = align_local(m.frames.cview(), g, small_settings());
  set_num_threads(threads);
  ASSERT_TRUE(d.model.local.has_value());
  EXPECT_EQ(d.model.local->cx, a.model.local->cx);
  EXPECT_EQ(d.model.local->cy, a.model.local->cy);
}

TEST(LocalAlignmentSmall, RejectsMoviesSmallerThanOnePatch) {
  const sim::SimulatedMovie& m = global_movie();
  const GlobalAlignment g = align_global(m.frames.cview(), small_settings().correlation);
  LocalSettings s = small_settings();
  s.min_local_resolution = 600;
  try {
    align_local(m.frames.cview(), g, s);
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::Usage);
    EXPECT_NE(std::string(e.what()).find("smaller than one patch"), std::string::npos) << e.what();
  }
}

} // namespace
} // namespace frost::motion
