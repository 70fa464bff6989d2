// Render parity of the CUDA movie backend (docs/movie_align.md#warping-and-summing and
// #cpu-and-gpu-equivalence): CudaMovie::render against render_movie on the host for global and
// B-spline models, every sum, --normalize mean and dose weighting. The device runs the host's
// per-pixel code (prefilter line, taps, spline field, sums in frame order), so sums agree to float
// rounding: bound relative rms <= 1e-5 of the reference's standard deviation (the documented bound
// is 1e-3); the dose-weighted sum adds cuFFT vs FFTW: <= 1e-4. A zero shift copies the frame on
// both. Interpolations other than bspline3 run the host renderer on the downloaded frames (exact).
#include <gtest/gtest.h>

#include <cstdio>
#include <random>
#include <string>

#include "frost/core/error.hpp"
#include "frost/cuda/motion.hpp"
#include "frost/geometry/fourier_shift.hpp"
#include "frost/motion/render_movie.hpp"
#include "frost/test/support.hpp"
#include "parity_metrics.hpp"

namespace frost::motion {
namespace {

// Smooth random frames (a few cosines plus noise): warps of them have structure at every scale.
Image<float> frames_for_render(index_t nx, index_t ny, index_t n, std::uint32_t seed) {
  Image<float> img(Shape::image(nx, ny, n));
  std::mt19937 rng(seed);
  std::normal_distribution<float> g(0.0f, 0.3f);
  for (index_t t = 0; t < n; ++t)
    for (index_t y = 0; y < ny; ++y)
      for (index_t x = 0; x < nx; ++x)
        img(x, y, 0, t) = static_cast<float>(std::cos(0.11 * x + 0.3 * t) + std::sin(0.07 * y - 0.2 * t)) + g(rng);
  return img;
}

MotionModel global_model(int n, int first) {
  MotionModel m;
  m.first_frame = first;
  m.reference = n / 2;
  for (int t = 0; t < n; ++t) m.global.push_back({0.37 * (t - n / 2), -0.81 * (t - n / 2) + 0.05 * t * t});
  m.global[static_cast<std::size_t>(n / 2)] = {0.0, 0.0}; // the reference frame is copied
  return m;
}

MotionModel spline_model(int n, int first, index_t nx, index_t ny, LocalModelKind kind) {
  MotionModel m = global_model(n, first);
  m.kind = kind;
  BSplineField f = BSplineField::make(5, 4, 4, static_cast<double>(nx), static_cast<double>(ny), n);
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> u(-1.5, 1.5);
  for (std::size_t i = 0; i < f.cx.size(); ++i) {
    f.cx[i] = u(rng);
    f.cy[i] = u(rng);
  }
  m.local = f;
  return m;
}

struct Case {
  const char* label;
  MotionModel model;
  SumOptions options;
};

void check(const char* what, const Image<float>& gpu, const Image<float>& cpu, double bound, const std::string& label) {
  if (cpu.size() == 0) {
    EXPECT_EQ(gpu.size(), 0) << label << " " << what;
    return;
  }
  ASSERT_EQ(gpu.shape(), cpu.shape()) << label << " " << what;
  const double e = cuda_test::rms_over_std(gpu.cview(), cpu.cview());
  std::printf("  %-14s rms/std %.3e, max |diff| %.3e\n", what, e, cuda_test::max_abs_diff(gpu.cview(), cpu.cview()));
  EXPECT_LE(e, bound) << label << " " << what;
}

TEST(CudaMotionParity, RenderMatchesHost) {
  FROST_REQUIRE_GPU();
  const index_t nx = 301, ny = 256; // odd width: the R2C half spectrum and mirror taps at both parities
  const int n = 9, first = 2;
  const Image<float> frames = frames_for_render(nx, ny, n, 5);
  cuda::CudaMovie movie(stack_frames(frames.cview(), "test"), first);

  SumOptions all;
  all.aligned_sum = all.unaligned_sum = all.halves = all.aligned_frames = true;
  all.dose_weighted = true;
  all.dose.dose_per_frame = 1.3;
  all.pixel_size = 1.1;
  SumOptions mean = all;
  mean.normalization = SumNormalization::Mean;
  mean.dose_weighted = false;
  const std::vector<Case> cases = {
      {"global model, all sums", global_model(n, first), all},
      {"global model, mean", global_model(n, first), mean},
      {"residual B-spline, all sums", spline_model(n, first, nx, ny, LocalModelKind::Residual), all},
      {"total B-spline, mean", spline_model(n, first, nx, ny, LocalModelKind::Total), mean},
  };
  const SumRange range{first + 1, n - 2}; // a sub-range: absolute frame numbers, halves by parity
  for (const Case& c : cases) {
    std::printf("%s\n", c.label);
    const FrameSums cpu = render_movie(frames.cview(), first, c.model, range, InterpolationMethod::BSpline3, c.options);
    const FrameSums gpu = movie.render(c.model, range, InterpolationMethod::BSpline3, c.options);
    check("aligned", gpu.aligned, cpu.aligned, 1e-5, c.label);
    check("unaligned", gpu.unaligned, cpu.unaligned, 1e-6, c.label);
    check("even", gpu.even, cpu.even, 1e-5, c.label);
    check("odd", gpu.odd, cpu.odd, 1e-5, c.label);
    check("aligned frames", gpu.aligned_frames, cpu.aligned_frames, 1e-5, c.label);
    check("dose weighted", gpu.dose_weighted, cpu.dose_weighted, 1e-4, c.label);
    EXPECT_EQ(gpu.first_frame, cpu.first_frame);
    EXPECT_EQ(gpu.frame_count, cpu.frame_count);
  }
  std::printf("render %.1f ms over %zu cases, peak device memory %zu bytes\n", movie.stats().render_ms, cases.size(),
              movie.stats().peak_used_bytes);
}

TEST(CudaMotionParity, RenderOtherInterpolationsRunOnHost) {
  FROST_REQUIRE_GPU();
  const Image<float> frames = frames_for_render(128, 96, 5, 6);
  cuda::CudaMovie movie(stack_frames(frames.cview(), "test"), 0);
  const MotionModel model = global_model(5, 0);
  SumOptions o;
  for (const InterpolationMethod method : {InterpolationMethod::Bilinear, InterpolationMethod::Fourier}) {
    const FrameSums cpu = render_movie(frames.cview(), 0, model, {0, 5}, method, o);
    const FrameSums gpu = movie.render(model, {0, 5}, method, o);
    EXPECT_EQ(cuda_test::max_abs_diff(gpu.aligned.cview(), cpu.aligned.cview()), 0.0);
  }
}

TEST(CudaMotionParity, RenderRejectsWhatTheHostRejects) {
  FROST_REQUIRE_GPU();
  const Image<float> frames = frames_for_render(64, 64, 4, 8);
  cuda::CudaMovie movie(stack_frames(frames.cview(), "test"), 0);
  EXPECT_THROW(movie.render(global_model(4, 0), {2, 5}, InterpolationMethod::BSpline3, {}), frost::Error);
  EXPECT_THROW(movie.render(spline_model(4, 0, 64, 64, LocalModelKind::Residual), {0, 4}, InterpolationMethod::Fourier, {}),
               frost::Error);
}

} // namespace
} // namespace frost::motion
