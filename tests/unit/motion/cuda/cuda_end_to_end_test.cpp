// End-to-end CPU/GPU equivalence of movie alignment (docs/movie_align.md#cpu-and-gpu-equivalence) on the T3
// movie (1024² x 20, dose 4, c 0.2, 5 x 5 patches of 256 px, control points 4 x 4 x 5): the same
// drivers (align_global, align_local, render) on HostPairMeasurer/HostPatchMeasurer/render_movie
// and on one CudaMovie. Bounds (--fft-sizes fast): global shifts <= 0.01 px; at most 1 %
// of pairwise integer maxima differ; B-spline model on a 33 x 33 grid over all frames <= 0.02 px;
// micrograph rms difference <= 1e-3 of its standard deviation. Determinism: two GPU runs are
// bit-identical. Each test prints its measured errors.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>

#include "frost/cuda/motion.hpp"
#include "frost/motion/local_alignment.hpp"
#include "frost/motion/render_movie.hpp"
#include "frost/test/support.hpp"
#include "local_movie_cases.hpp"
#include "parity_metrics.hpp"

namespace frost::motion {
namespace {

double max_shift_diff(const std::vector<Vec2>& a, const std::vector<Vec2>& b) {
  double m = 0;
  for (std::size_t t = 0; t < b.size(); ++t) m = std::max({m, std::abs(a[t].x - b[t].x), std::abs(a[t].y - b[t].y)});
  return m;
}

int differing_peaks(const GlobalAlignment& a, const GlobalAlignment& b) {
  int n = 0;
  for (std::size_t k = 0; k < b.pairs.size(); ++k)
    n += (a.pairs[k].measurement.peak.ix != b.pairs[k].measurement.peak.ix ||
          a.pairs[k].measurement.peak.iy != b.pairs[k].measurement.peak.iy)
             ? 1
             : 0;
  return n;
}

// Largest difference of the two models' shifts on a 33 x 33 grid over the frame, every frame.
double max_model_diff(const MotionModel& a, const MotionModel& b, index_t nx, index_t ny) {
  double m = 0;
  for (int t = 0; t < b.frames(); ++t)
    for (int j = 0; j < 33; ++j)
      for (int i = 0; i < 33; ++i) {
        const double x = (nx - 1) * i / 32.0, y = (ny - 1) * j / 32.0;
        const Vec2 sa = a.shift(x, y, t), sb = b.shift(x, y, t);
        m = std::max({m, std::abs(sa.x - sb.x), std::abs(sa.y - sb.y)});
      }
  return m;
}

TEST(CudaMotionEndToEnd, T3GlobalLocalRenderMatchCpu) {
  FROST_REQUIRE_GPU();
  const local_test::Movie m = local_test::t3_movie(4.0, 4.0, 0.2, 31);
  const auto views = stack_frames(m.frames, "test");
  const index_t nx = m.frames.shape.x, ny = m.frames.shape.y;
  const GlobalSettings gs = local_test::global_settings();
  const LocalSettings ls = local_test::local_settings();
  SumOptions so;
  so.dose_weighted = true;
  so.pixel_size = gs.pixel_size;
  const SumRange range{0, static_cast<int>(views.size())};

  const GlobalAlignment cpu_g = align_global(views, gs);
  const LocalAlignment cpu_l = align_local(views, cpu_g, ls);
  const FrameSums cpu_s = render_movie(m.frames, 0, cpu_l.model, range, InterpolationMethod::BSpline3, so);

  cuda::CudaMovie movie(views, 0);
  const GlobalAlignment gpu_g = align_global(movie, gs);
  const LocalAlignment gpu_l = align_local(movie, gpu_g, ls);
  const FrameSums gpu_s = movie.render(gpu_l.model, range, InterpolationMethod::BSpline3, so);

  const double shift_diff = max_shift_diff(gpu_g.shifts, cpu_g.shifts);
  const int peaks = differing_peaks(gpu_g, cpu_g);
  double patch_diff = 0;
  for (std::size_t p = 0; p < cpu_l.patches.size(); ++p)
    patch_diff = std::max(patch_diff, max_shift_diff(gpu_l.patches[p].residual, cpu_l.patches[p].residual));
  ASSERT_EQ(gpu_l.model.local.has_value(), cpu_l.model.local.has_value());
  const double model_diff = max_model_diff(gpu_l.model, cpu_l.model, nx, ny);
  const double mic = cuda_test::rms_over_std(gpu_s.aligned.cview(), cpu_s.aligned.cview());
  const double mic_dw = cuda_test::rms_over_std(gpu_s.dose_weighted.cview(), cpu_s.dose_weighted.cview());
  std::printf("global: max shift diff %.2e px, %d of %zu pair maxima differ, reference %d/%d\n", shift_diff, peaks,
              cpu_g.pairs.size(), gpu_g.reference, cpu_g.reference);
  std::printf("local: max patch residual diff %.2e px, model diff %.2e px (33x33 grid, all frames), fallback %d/%d\n",
              patch_diff, model_diff, gpu_l.fell_back ? 1 : 0, cpu_l.fell_back ? 1 : 0);
  std::printf("micrograph rms/std %.2e, dose-weighted %.2e\n", mic, mic_dw);
  const cuda::CudaMotionStats& st = movie.stats();
  std::printf("gpu: upload %.1f ms, spectra %.1f ms, correlate %.1f ms, patches %.1f ms, render %.1f ms, %zu maps, "
              "peak %.1f MiB\n",
              st.upload_ms, st.spectra_ms, st.correlate_ms, st.patches_ms, st.render_ms, st.correlations,
              st.peak_used_bytes / 1048576.0);
  EXPECT_LE(shift_diff, 0.01);
  EXPECT_LE(peaks, static_cast<int>(cpu_g.pairs.size()) / 100);
  EXPECT_EQ(gpu_g.reference, cpu_g.reference);
  EXPECT_LE(model_diff, 0.02);
  EXPECT_LE(mic, 1e-3);
  EXPECT_LE(mic_dw, 1e-3);
}

TEST(CudaMotionEndToEnd, TwoGpuRunsAreBitIdentical) {
  FROST_REQUIRE_GPU();
  const local_test::Movie m = local_test::t3_movie(4.0, 4.0, 0.2, 32);
  const auto views = stack_frames(m.frames, "test");
  const GlobalSettings gs = local_test::global_settings();
  const LocalSettings ls = local_test::local_settings();
  std::vector<Vec2> shifts[2];
  std::vector<double> coeffs[2];
  Image<float> sums[2];
  for (int run = 0; run < 2; ++run) {
    cuda::CudaMovie movie(views, 0);
    const GlobalAlignment g = align_global(movie, gs);
    const LocalAlignment l = align_local(movie, g, ls);
    shifts[run] = g.shifts;
    if (l.model.local) coeffs[run] = l.model.local->cx;
    sums[run] = movie.render(l.model, {0, static_cast<int>(views.size())}, InterpolationMethod::BSpline3, {}).aligned;
  }
  ASSERT_EQ(shifts[0].size(), shifts[1].size());
  for (std::size_t t = 0; t < shifts[0].size(); ++t) {
    EXPECT_EQ(shifts[0][t].x, shifts[1][t].x);
    EXPECT_EQ(shifts[0][t].y, shifts[1][t].y);
  }
  EXPECT_EQ(coeffs[0], coeffs[1]);
  ASSERT_EQ(sums[0].shape(), sums[1].shape());
  EXPECT_EQ(std::memcmp(sums[0].data(), sums[1].data(), static_cast<std::size_t>(sums[0].size()) * sizeof(float)), 0);
}

TEST(CudaMotionEndToEnd, SumModeMatchesCpu) {
  FROST_REQUIRE_GPU();
  const local_test::Movie m = local_test::t3_movie(4.0, 4.0, 0.2, 33);
  const auto views = stack_frames(m.frames, "test");
  GlobalSettings gs = local_test::global_settings();
  gs.mode = GlobalMode::Sum;
  const GlobalAlignment cpu = align_global(views, gs);
  cuda::CudaMovie movie(views, 0);
  const GlobalAlignment gpu = align_global(movie, gs);
  const double d = max_shift_diff(gpu.shifts, cpu.shifts);
  std::printf("sum mode: max shift diff %.2e px, iterations %d/%d\n", d, gpu.solver_rounds, cpu.solver_rounds);
  EXPECT_LE(d, 0.01);
}

} // namespace
} // namespace frost::motion
