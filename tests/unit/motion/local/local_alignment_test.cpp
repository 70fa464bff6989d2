// Whole-movie local alignment of simulated T3 movies (docs/movie_align.md#local-accuracy): 1024² x 20,
// 5 x 5 patches of 256 px, --patchesAvg 3, control points 4 x 4 x 5, residual model. ctest runs
// every test in its own process and movies are cached per process, so each test uses one movie
// (one simulation) and checks every criterion that belongs to it. Statistical criteria run on 3
// seeds; the rounding-correction guard is deterministic and runs on the first seed.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>

#include "frost/motion/local_measurements.hpp"
#include "local_movie_cases.hpp"

namespace frost::motion {
namespace {

using local_test::Errors;

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

struct AlignedMovie {
  GlobalAlignment global;
  LocalAlignment local;
};

AlignedMovie align(const local_test::Movie& m, const LocalSettings& settings, const char* label) {
  const auto t0 = std::chrono::steady_clock::now();
  AlignedMovie r{align_global(m.frames, settings.correlation), {}};
  const double global_s = seconds_since(t0);
  r.local = align_local(m.frames, r.global, settings);
  std::printf("%-34s global %.2f s, local %.2f s | patch %d px at %lldx%lld, %d patches, %d pair outliers, "
              "fit rmsd %.4f px, %d rejected, fallback %s\n",
              label, global_s, seconds_since(t0) - global_s, r.local.grid.size,
              static_cast<long long>(r.local.patch_sizes.correlation.x),
              static_cast<long long>(r.local.patch_sizes.correlation.y), r.local.grid.count(),
              r.local.patch_outliers, r.local.fit ? r.local.fit->rmsd : -1.0, r.local.fit ? r.local.fit->rejected : -1,
              r.local.fell_back ? r.local.fallback_reason.c_str() : "no");
  return r;
}

Errors report(const char* label, const Errors& e) {
  std::printf("  %-40s rms %.4f  p95 %.4f  max %.4f px\n", label, e.rms, e.p95, e.max);
  return e;
}

MotionModel global_only(const MotionModel& m) {
  MotionModel g = m;
  g.local.reset();
  return g;
}

class LocalAlignmentT3 : public ::testing::TestWithParam<std::uint32_t> {};

TEST_P(LocalAlignmentT3, NoiseFreeDose4GlobalOnlyAndRoundingCorrection) {
  const std::uint32_t seed = GetParam();
  const auto t0 = std::chrono::steady_clock::now();
  const local_test::Movie nf = local_test::t3_movie(4.0, 0, 0, seed);
  std::printf("seed %u: simulated T3 1024^2 x 20 in %.2f s\n", seed, seconds_since(t0));
  const LocalSettings settings = local_test::local_settings();

  const AlignedMovie a = align(nf, settings, "T3 noise-free");
  ASSERT_TRUE(a.local.model.local.has_value());
  EXPECT_EQ(a.local.grid.count(), 25);
  EXPECT_EQ(a.local.grid.size, 256);
  const Errors model = report("noise-free, residual model", local_test::model_errors(a.local.model, nf.trajectory, 1024, 1024));
  const Errors global = report("noise-free, global-only model",
                               local_test::model_errors(global_only(a.local.model), nf.trajectory, 1024, 1024));
  const Errors patches = report("noise-free, patch measurements", local_test::patch_errors(a.local, nf.trajectory));
  EXPECT_LE(model.rms, 0.10);
  EXPECT_LE(model.p95, 0.20);
  EXPECT_GE(global.rms, 3.0 * model.rms);
  EXPECT_LT(patches.rms, 0.1);

  if (seed == 1) {
    LocalSettings uncorrected = settings;
    uncorrected.rounding_correction = false;
    const AlignedMovie b = align(nf, uncorrected, "T3 noise-free, no rounding corr.");
    const Errors raw = report("noise-free, patches without correction", local_test::patch_errors(b.local, nf.trajectory));
    EXPECT_GT(raw.rms, 0.2);
  }

  const local_test::Movie d4 = local_test::t3_movie(4.0, 4.0, 0.2, seed);
  const AlignedMovie c = align(d4, settings, "T3 dose 4, c 0.2");
  ASSERT_TRUE(c.local.model.local.has_value());
  const Errors noisy = report("dose 4, c 0.2, residual model", local_test::model_errors(c.local.model, d4.trajectory, 1024, 1024));
  report("dose 4, c 0.2, patch measurements", local_test::patch_errors(c.local, d4.trajectory));
  EXPECT_LE(noisy.rms, 0.20);
  EXPECT_LE(noisy.p95, 0.35);
  std::printf("test total %.2f s\n", seconds_since(t0));
}

TEST_P(LocalAlignmentT3, FastDriftResidualBeatsTotal) {
  const auto t0 = std::chrono::steady_clock::now();
  const local_test::Movie fast = local_test::t3_movie(1.5, 0, 0, GetParam());
  LocalSettings settings = local_test::local_settings();
  const AlignedMovie a = align(fast, settings, "T3 fast drift, residual");
  ASSERT_TRUE(a.local.model.local.has_value());
  const Errors residual = report("fast drift, residual model", local_test::model_errors(a.local.model, fast.trajectory, 1024, 1024));
  report("fast drift, patch measurements", local_test::patch_errors(a.local, fast.trajectory));

  settings.model = LocalModelKind::Total;
  const LocalAlignment total = align_local(fast.frames, a.global, settings);
  ASSERT_TRUE(total.model.local.has_value());
  EXPECT_EQ(total.model.kind, LocalModelKind::Total);
  const Errors tot = report("fast drift, total model (L_t = 5)", local_test::model_errors(total.model, fast.trajectory, 1024, 1024));
  EXPECT_LE(residual.rms, 0.15);
  EXPECT_GT(tot.rms, residual.rms);
  std::printf("test total %.2f s\n", seconds_since(t0));
}

INSTANTIATE_TEST_SUITE_P(Seeds, LocalAlignmentT3, ::testing::Values(1u, 2u, 3u));

} // namespace
} // namespace frost::motion
