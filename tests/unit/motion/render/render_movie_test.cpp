// The render loop end to end: a movie whose frames are the reference content displaced by d_t,
// rendered with the stored shifts s_t = −d_t, sums to N times the reference
// (docs/movie_align.md#conventions), while the unaligned sum is blurred.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstring>

#include "frost/core/error.hpp"
#include "frost/motion/render_movie.hpp"
#include "render_test_images.hpp"

namespace frost::motion {
namespace {

using test_images::interior_relative_rms;

TEST(RenderMovie, StoredShiftsAlignADisplacedMovie) {
  const index_t n = 160;
  const int frames = 6, stack_first = 1;
  const Image<float> reference = test_images::band_limited_noise(n, n, 0.25, 8);
  Image<float> movie(Shape::image(n, n, frames));
  MotionModel model;
  model.first_frame = stack_first;
  for (int i = 0; i < frames; ++i) {
    const double dx = 0.9 * i, dy = -0.55 * i + 0.1 * i * i;  // content displacement of frame i
    const Image<float> fi = test_images::fourier_shifted(reference.cview(), dx, dy);
    std::memcpy(movie.data() + i * n * n, fi.data(), sizeof(float) * static_cast<std::size_t>(n * n));
    model.global.push_back({-dx, -dy});
  }
  SumOptions options;
  options.unaligned_sum = true;
  options.normalization = SumNormalization::Mean;
  const SumRange range{2, 4};  // absolute frames 2..5 = stack items 1..4
  for (InterpolationMethod m : {InterpolationMethod::BSpline3, InterpolationMethod::Fourier}) {
    const FrameSums s = render_movie(movie.cview(), stack_first, model, range, m, options);
    const double aligned = interior_relative_rms(s.aligned.cview(), reference.cview(), 16);
    const double unaligned = interior_relative_rms(s.unaligned.cview(), reference.cview(), 16);
    std::printf("[ measured ] %s: mean of aligned frames vs reference %.2e, unaligned %.2f\n", to_string(m).c_str(),
                aligned, unaligned);
    EXPECT_LT(aligned, m == InterpolationMethod::Fourier ? 1e-5 : 1.5e-2);
    EXPECT_GT(unaligned, 0.5);
  }
  EXPECT_THROW(render_movie(movie.cview(), stack_first, model, SumRange{0, 3}, InterpolationMethod::BSpline3, options),
               Error);
  EXPECT_THROW(render_movie(movie.cview(), stack_first, model, SumRange{5, 3}, InterpolationMethod::BSpline3, options),
               Error);
}

} // namespace
} // namespace frost::motion
