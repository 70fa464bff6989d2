// Correlation sign and batching ("Correlation sign" in docs/movie_align.md#unit-checks): Xmipp's test pattern
// (test_cuda_flexalign_correlate.cpp) puts a point at centre + n in frame n, so the content of frame n
// is displaced by d_n = (n, n) and every pair must measure m_ij = d_j - d_i = (j - i, j - i),
// whatever the batch size and the frame window.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "frost/motion/frame_spectra.hpp"
#include "frost/motion/pair_correlation.hpp"

namespace frost::motion {
namespace {

struct Pattern {
  index_t x, y;
  int frames;
};

Image<float> point_movie(const Pattern& p) {
  Image<float> m(Shape::image(p.x, p.y, p.frames));
  for (int n = 0; n < p.frames; ++n) m(p.x / 2 + n, p.y / 2 + n, 0, n) = 1.f;
  return m;
}

double worst_error(const std::vector<PairMeasurement>& got) {
  double worst = 0;
  for (const PairMeasurement& m : got) {
    const double want = m.pair.j - m.pair.i;
    worst = std::max({worst, std::abs(m.displacement.x - want), std::abs(m.displacement.y - want)});
  }
  return worst;
}

bool identical(const std::vector<PairMeasurement>& a, const std::vector<PairMeasurement>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t k = 0; k < a.size(); ++k)
    if (!(a[k].pair == b[k].pair) || a[k].displacement.x != b[k].displacement.x ||
        a[k].displacement.y != b[k].displacement.y || a[k].peak.value != b[k].peak.value)
      return false;
  return true;
}

class CorrelationSign : public ::testing::TestWithParam<Pattern> {};

TEST_P(CorrelationSign, PairsMeasureJMinusIForEveryBatchAndWindow) {
  const Pattern p = GetParam();
  const Image<float> movie = point_movie(p);
  std::vector<View<const float>> frames;
  for (int n = 0; n < p.frames; ++n) frames.push_back(movie.cview().item(n));
  // No Fourier crop and no low-pass: the point pattern needs the full grid.
  WorkingSizes s;
  s.frame = s.transform = s.correlation = {p.x, p.y};
  const Image<fft::Complex> spectra = filtered_spectra(frames, s, View<const float>{});
  const std::vector<FramePair> pairs = frame_pairs(p.frames, 0);
  ASSERT_EQ(pairs.size(), static_cast<std::size_t>(p.frames * (p.frames - 1) / 2));

  CorrelationOptions o;
  o.search_radius = 1000; // the whole map
  const auto reference = correlate_pairs(spectra.cview(), pairs, s, o);
  const double err = worst_error(reference);
  int edges = 0;
  for (const auto& m : reference) edges += m.peak.edge;
  std::printf("%lldx%lldx%d: %zu pairs, max |m_ij - (j-i)| = %.2e px, edge flags %d\n",
              static_cast<long long>(p.x), static_cast<long long>(p.y), p.frames, reference.size(), err, edges);
  EXPECT_LT(err, 1e-4);
  EXPECT_EQ(edges, 0);

  int runs = 0, differing = 0;
  for (int batch = 1; batch <= static_cast<int>(pairs.size()); ++batch) {
    o.pair_batch = batch;
    o.frame_window = 0;
    const auto got = correlate_pairs(spectra.cview(), pairs, s, o);
    ++runs;
    differing += !identical(got, reference);
    EXPECT_LT(worst_error(got), 1e-4) << "batch " << batch;
  }
  for (int window = 1; window <= p.frames; ++window)
    for (int batch : {1, 7, 0}) {
      o.pair_batch = batch;
      o.frame_window = window;
      const auto got = correlate_pairs(spectra.cview(), pairs, s, o);
      ++runs;
      differing += !identical(got, reference);
      EXPECT_LT(worst_error(got), 1e-4) << "window " << window << " batch " << batch;
    }
  std::printf("  %d batch/window runs, %d not bit-identical to the all-at-once run\n", runs, differing);
  EXPECT_EQ(differing, 0);
}

INSTANTIATE_TEST_SUITE_P(XmippPattern, CorrelationSign,
                         ::testing::Values(Pattern{42, 24, 10}, Pattern{24, 42, 10}, Pattern{36, 86, 17}),
                         [](const ::testing::TestParamInfo<Pattern>& i) {
                           return std::to_string(i.param.x) + "x" + std::to_string(i.param.y) + "x" +
                                  std::to_string(i.param.frames);
                         });

TEST(PairSchedule, WindowsVisitEveryPairOnce) {
  for (int frames : {3, 10, 17})
    for (int k : {0, 1, 3})
      for (int window : {0, 1, 2, 4, 5, frames}) {
        const auto pairs = frame_pairs(frames, k);
        for (const FramePair& p : pairs) ASSERT_TRUE(p.i < p.j && (k == 0 || p.j - p.i <= k));
        auto order = window_schedule(pairs, frames, window);
        ASSERT_EQ(order.size(), pairs.size());
        std::sort(order.begin(), order.end());
        for (std::size_t n = 0; n < order.size(); ++n) ASSERT_EQ(order[n], static_cast<int>(n));
      }
  EXPECT_EQ(frame_pairs(20, 0).size(), 190u);
  EXPECT_EQ(frame_pairs(20, 2).size(), 19u + 18u);
  // Window 2 of 4 frames: A = {0,1}: (0,1); A x {2,3}: (0,2),(0,3),(1,2),(1,3); then A = {2,3}: (2,3).
  const auto pairs = frame_pairs(4, 0);
  const auto order = window_schedule(pairs, 4, 2);
  std::vector<FramePair> visited;
  for (int k : order) visited.push_back(pairs[static_cast<std::size_t>(k)]);
  const std::vector<FramePair> want{{0, 1}, {0, 2}, {0, 3}, {1, 2}, {1, 3}, {2, 3}};
  EXPECT_EQ(visited, want);
}

} // namespace
} // namespace frost::motion
