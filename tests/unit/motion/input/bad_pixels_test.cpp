// Hot pixels and bad-pixel replacement (docs/movie_align.md#gain-dark-defects-and-hot-pixels):
// detection on the sum, a random good neighbour from the (2D+1)^2 window, the Gaussian fallback,
// and results that do not depend on threads or processing order.
#include <omp.h>

#include <cmath>
#include <set>

#include "frost/motion/bad_pixels.hpp"
#include "frost/motion/defects.hpp"
#include "frost/test/support.hpp"

namespace frost::motion {
namespace {

TEST(HotPixels, AboveMeanPlusKSigmaOfTheSum) {
  const index_t w = 64, h = 48;
  const auto noise = test::random_floats(std::size_t(w * h), 7, 90.f, 110.f);
  Image<float> sum(Shape::image(w, h));
  for (index_t i = 0; i < sum.size(); ++i) sum[i] = noise[std::size_t(i)];
  sum(5, 5) = 1000;
  sum(60, 2) = 800;
  sum(33, 40) = 400;
  sum(10, 10) = 5000; // a known defect: neither counted nor re-marked
  Image<std::uint8_t> mask(sum.shape());
  mask(10, 10) = kDefectPixel;
  const HotPixelReport r = detect_hot_pixels(sum.cview(), 6.0, mask);
  std::printf("mean %.3f sigma %.3f threshold %.3f hot %lld\n", r.mean, r.sigma, r.threshold, (long long)r.count);
  EXPECT_EQ(r.count, 3);
  EXPECT_EQ(mask(5, 5), kHotPixel);
  EXPECT_EQ(mask(60, 2), kHotPixel);
  EXPECT_EQ(mask(33, 40), kHotPixel);
  EXPECT_EQ(mask(10, 10), kDefectPixel);
  EXPECT_NEAR(r.mean, 100.0 + (1000 + 800 + 400 - 300) / double(w * h - 1), 0.5);
}

/// A frame whose pixel i holds the value i, so a replacement names its source.
Image<float> index_frame(index_t w, index_t h, float offset = 0) {
  Image<float> f(Shape::image(w, h));
  for (index_t i = 0; i < f.size(); ++i) f[i] = float(i) + offset;
  return f;
}

TEST(BadPixelFiller, CopiesAGoodPixelOfTheWindow) {
  const index_t w = 32, h = 24;
  Image<std::uint8_t> mask(Shape::image(w, h));
  mask(10, 10) = kHotPixel;
  mask(11, 10) = kDefectPixel;
  mask(0, 0) = kZeroGainPixel; // corner: 8 good pixels in its clipped 5x5 window
  for (index_t y = 0; y < h; ++y) mask(20, y) = kDefectPixel; // a bad column
  BadPixelFiller filler(mask.cview(), 2, 11);
  EXPECT_EQ(filler.bad_count(), 3 + h);
  EXPECT_EQ(filler.isolated_count(), 0);
  std::set<float> sources_of_corner;
  for (index_t t = 0; t < 50; ++t) {
    Image<float> f = index_frame(w, h);
    filler.fill(f.data(), t);
    for (index_t i = 0; i < f.size(); ++i) {
      if (mask[i] == kGoodPixel) {
        ASSERT_EQ(f[i], float(i)); // good pixels untouched
        continue;
      }
      const auto src = static_cast<index_t>(f[i]);
      const index_t sx = src % w, sy = src / w, x = i % w, y = i / w;
      ASSERT_LE(std::abs(sx - x), 2) << "pixel " << x << "," << y;
      ASSERT_LE(std::abs(sy - y), 2) << "pixel " << x << "," << y;
      ASSERT_EQ(mask[src], kGoodPixel) << "copied from a bad pixel";
    }
    sources_of_corner.insert(f[0]);
  }
  std::printf("the corner pixel drew %zu different sources in 50 frames\n", sources_of_corner.size());
  EXPECT_GE(sources_of_corner.size(), 4u); // random, not always the same neighbour
}

TEST(BadPixelFiller, SameResultForAnyThreadCountOrderAndFrameRange) {
  const index_t w = 40, h = 30, frames = 12;
  Image<std::uint8_t> mask(Shape::image(w, h));
  for (index_t i = 0; i < mask.size(); i += 17) mask[i] = kHotPixel;
  for (index_t y = 10; y < 20; ++y)
    for (index_t x = 10; x < 20; ++x) mask(x, y) = kDefectPixel; // a block: some isolated pixels
  BadPixelFiller filler(mask.cview(), 2, 42);
  EXPECT_GT(filler.isolated_count(), 0);
  const auto run = [&](int threads, bool reverse, std::uint64_t seed) {
    BadPixelFiller f(mask.cview(), 2, seed);
    Image<float> movie(Shape{w, h, 1, frames});
    const auto noise = test::random_floats(std::size_t(movie.size()), 3, 0.f, 10.f);
    for (index_t i = 0; i < movie.size(); ++i) movie[i] = noise[std::size_t(i)];
#pragma omp parallel for num_threads(threads) schedule(dynamic, 1)
    for (index_t k = 0; k < frames; ++k) {
      const index_t t = reverse ? frames - 1 - k : k;
      f.fill(movie.data() + t * w * h, 100 + t);
    }
    return movie;
  };
  const Image<float> a = run(1, false, 42), b = run(4, true, 42), c = run(3, false, 43);
  index_t differ_ab = 0, differ_ac = 0;
  for (index_t i = 0; i < a.size(); ++i) {
    differ_ab += a[i] != b[i];
    differ_ac += a[i] != c[i];
  }
  std::printf("1 thread vs 4 threads reversed: %lld values differ; seed 42 vs 43: %lld differ\n",
              (long long)differ_ab, (long long)differ_ac);
  EXPECT_EQ(differ_ab, 0);
  EXPECT_GT(differ_ac, 0);
}

TEST(BadPixelFiller, IsolatedPixelsGetGaussianValuesWithTheFrameStatistics) {
  const index_t w = 96, h = 96;
  Image<std::uint8_t> mask(Shape::image(w, h));
  for (index_t y = 20; y < 70; ++y)
    for (index_t x = 20; x < 70; ++x) mask(x, y) = kDefectPixel; // 50x50 block: its inside is isolated
  BadPixelFiller filler(mask.cview(), 2, 5);
  EXPECT_GT(filler.isolated_count(), 40 * 40);
  Image<float> f(Shape::image(w, h));
  // Good pixels: mean 50, standard deviation 5 (uniform on 50 +- 5*sqrt(3)).
  const auto u = test::random_floats(std::size_t(f.size()), 9, float(50 - 5 * std::sqrt(3.0)), float(50 + 5 * std::sqrt(3.0)));
  for (index_t i = 0; i < f.size(); ++i) f[i] = u[std::size_t(i)];
  filler.fill(f.data(), 0);
  double s = 0, q = 0;
  index_t n = 0;
  for (index_t y = 25; y < 65; ++y)
    for (index_t x = 25; x < 65; ++x) {
      s += f(x, y);
      q += double(f(x, y)) * f(x, y);
      ++n;
    }
  const double mean = s / double(n), sd = std::sqrt(q / double(n) - mean * mean);
  std::printf("Gaussian replacements: mean %.3f sd %.3f over %lld pixels\n", mean, sd, (long long)n);
  EXPECT_NEAR(mean, 50.0, 0.5);
  EXPECT_NEAR(sd, 5.0, 0.5);
}

} // namespace
} // namespace frost::motion
