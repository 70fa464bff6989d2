// --low-memory rendering (docs/movie_align.md#binning-and-memory): render_movie() on frames made by a
// FrameLoader gives every output of render_movie() on the frames in memory bit for bit, and
// loads each summed frame once.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <vector>

#include "frost/core/error.hpp"
#include "frost/motion/frame_renderer.hpp"
#include "frost/motion/render_movie.hpp"
#include "render_test_images.hpp"

namespace frost::motion {
namespace {

bool same(const Image<float>& a, const Image<float>& b) {
  return a.shape() == b.shape() &&
         std::memcmp(a.data(), b.data(), sizeof(float) * static_cast<std::size_t>(a.size())) == 0;
}

TEST(StreamedRender, LoaderFramesGiveTheSameSums) {
  const index_t nx = 160, ny = 128;
  const int frames = 6, first = 3;
  Image<float> movie(Shape::image(nx, ny, frames));
  for (int t = 0; t < frames; ++t) {
    const Image<float> f = test_images::band_limited_noise(nx, ny, 0.45, 70u + static_cast<std::uint32_t>(t));
    std::memcpy(movie.data() + t * nx * ny, f.data(), sizeof(float) * static_cast<std::size_t>(nx * ny));
  }
  MotionModel model;
  model.first_frame = first;
  for (int t = 0; t < frames; ++t) model.global.push_back({0.6 * t, -0.35 * t});
  BSplineField f;
  f.lx = f.ly = f.lt = 4;
  f.hx = static_cast<double>(nx) / (f.lx - 3);
  f.hy = static_cast<double>(ny) / (f.ly - 3);
  f.ht = static_cast<double>(frames) / (f.lt - 3);
  for (int i = 0; i < f.size(); ++i) {
    f.cx.push_back(0.3 * std::sin(0.9 * i));
    f.cy.push_back(0.2 * std::cos(1.1 * i));
  }
  model.local = f;
  SumOptions options;
  options.unaligned_sum = options.halves = options.aligned_frames = options.dose_weighted = true;
  options.dose = {1.2, 0.5, 300.0};
  const SumRange range{first + 1, 4};

  const FrameSums want = render_movie(movie.cview(), first, model, range, InterpolationMethod::BSpline3, options);
  int loads = 0;
  StreamedFrameRenderer renderer(
      [&](int t, float* out) {
        ++loads;
        std::memcpy(out, movie.data() + t * nx * ny, sizeof(float) * static_cast<std::size_t>(nx * ny));
      },
      nx, ny, frames, first);
  const FrameSums got = renderer.render(model, range, InterpolationMethod::BSpline3, options);
  EXPECT_EQ(loads, 4);
  EXPECT_TRUE(same(got.aligned, want.aligned));
  EXPECT_TRUE(same(got.unaligned, want.unaligned));
  EXPECT_TRUE(same(got.even, want.even));
  EXPECT_TRUE(same(got.odd, want.odd));
  EXPECT_TRUE(same(got.aligned_frames, want.aligned_frames));
  EXPECT_TRUE(same(got.dose_weighted, want.dose_weighted));
  EXPECT_GT(got.aligned.size(), 0);
  EXPECT_THROW(renderer.render(model, SumRange{first, 7}, InterpolationMethod::BSpline3, options), Error);
}

} // namespace
} // namespace frost::motion
