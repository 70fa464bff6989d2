// Determinism across thread counts (docs/movie_align.md#cpu-and-gpu-equivalence): every output of the render
// stage is bit-identical with 1 and 2 threads (warps are per pixel, sums per pixel in frame
// order, PSD tiles in a fixed order).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "frost/core/threads.hpp"
#include "frost/motion/power_spectrum.hpp"
#include "frost/motion/render_movie.hpp"
#include "render_test_images.hpp"

namespace frost::motion {
namespace {

struct Outputs {
  std::vector<Image<float>> images;
  std::vector<std::string> names;
};

MotionModel local_model(index_t nx, index_t ny, int frames) {
  MotionModel m;
  for (int t = 0; t < frames; ++t) m.global.push_back({0.7 * t, -0.4 * t});
  BSplineField f;
  f.lx = 5;
  f.ly = 4;
  f.lt = 4;
  f.hx = static_cast<double>(nx) / (f.lx - 3);
  f.hy = static_cast<double>(ny) / (f.ly - 3);
  f.ht = static_cast<double>(frames) / (f.lt - 3);
  for (int i = 0; i < f.size(); ++i) {
    f.cx.push_back(0.3 * std::sin(0.7 * i));
    f.cy.push_back(0.25 * std::cos(1.3 * i));
  }
  m.local = f;
  return m;
}

Outputs render_all(int threads, const Image<float>& movie) {
  set_num_threads(threads);
  const index_t nx = movie.shape().x, ny = movie.shape().y;
  const int frames = static_cast<int>(movie.shape().n);
  SumOptions options;
  options.unaligned_sum = options.halves = options.aligned_frames = options.dose_weighted = true;
  options.dose = {1.1, 0.0, 300.0};
  options.pixel_size = 1.2;
  Outputs out;
  const MotionModel local = local_model(nx, ny, frames);
  MotionModel global = local;
  global.local.reset();
  for (InterpolationMethod m : {InterpolationMethod::BSpline3, InterpolationMethod::Bilinear, InterpolationMethod::Fourier}) {
    const MotionModel& model = m == InterpolationMethod::Fourier ? global : local;
    FrameSums s = render_movie(movie.cview(), 0, model, SumRange{0, frames}, m, options);
    const std::string tag = to_string(m) + " ";
    out.images.push_back(mean_periodogram(s.aligned.cview(), 64));
    out.names.push_back(tag + "psd");
    out.images.push_back(std::move(s.aligned));
    out.names.push_back(tag + "aligned");
    out.images.push_back(std::move(s.unaligned));
    out.names.push_back(tag + "unaligned");
    out.images.push_back(std::move(s.even));
    out.names.push_back(tag + "even");
    out.images.push_back(std::move(s.odd));
    out.names.push_back(tag + "odd");
    out.images.push_back(std::move(s.aligned_frames));
    out.names.push_back(tag + "stack");
    out.images.push_back(std::move(s.dose_weighted));
    out.names.push_back(tag + "dose-weighted");
  }
  set_num_threads(0);
  return out;
}

TEST(RenderDeterminism, OneAndTwoThreadsGiveIdenticalBits) {
  const index_t nx = 192, ny = 144;
  const int frames = 5;
  Image<float> movie(Shape::image(nx, ny, frames));
  for (int t = 0; t < frames; ++t) {
    const Image<float> f = test_images::band_limited_noise(nx, ny, 0.45, 40u + static_cast<std::uint32_t>(t));
    std::memcpy(movie.data() + t * nx * ny, f.data(), sizeof(float) * static_cast<std::size_t>(nx * ny));
  }
  const Outputs one = render_all(1, movie), two = render_all(2, movie);
  ASSERT_EQ(one.images.size(), two.images.size());
  int identical = 0;
  for (std::size_t i = 0; i < one.images.size(); ++i) {
    const Image<float>& a = one.images[i];
    const Image<float>& b = two.images[i];
    ASSERT_EQ(a.shape(), b.shape()) << one.names[i];
    ASSERT_GT(a.size(), 0) << one.names[i];
    const bool same = std::memcmp(a.data(), b.data(), sizeof(float) * static_cast<std::size_t>(a.size())) == 0;
    EXPECT_TRUE(same) << one.names[i] << " differs between 1 and 2 threads";
    identical += same;
  }
  std::printf("[ measured ] %d of %zu outputs bit-identical with 1 and 2 threads\n", identical, one.images.size());
}

} // namespace
} // namespace frost::motion
