// Test 17 (docs/align_significant.md#significance-and-program-tests, updated references): class
// averages of noise-free images aligned by the CPU backend match their references; the normaliser
// is per reference; an unassigned reference gives zeros and count 0.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <numeric>

#include "frost/alignment/analytic_phantom.hpp"
#include "frost/alignment/backend.hpp"
#include "frost/alignment/class_averages.hpp"
#include "frost/alignment/significance.hpp"

namespace frost::align {
namespace {

double pearson(const float* a, const float* b, std::size_t n) {
  double ma = 0, mb = 0;
  for (std::size_t k = 0; k < n; ++k) {
    ma += a[k];
    mb += b[k];
  }
  ma /= double(n);
  mb /= double(n);
  double ab = 0, aa = 0, bb = 0;
  for (std::size_t k = 0; k < n; ++k) {
    ab += (a[k] - ma) * (b[k] - mb);
    aa += (a[k] - ma) * (a[k] - ma);
    bb += (b[k] - mb) * (b[k] - mb);
  }
  return aa > 0 && bb > 0 ? ab / std::sqrt(aa * bb) : 0.0;
}

double pixel_sum(const float* a, std::size_t n) { return std::accumulate(a, a + n, 0.0); }

struct Fixture {
  static constexpr int kX = 64;
  static constexpr std::size_t kPerView = 20;
  std::vector<geom::EulerAngles> views{{30, 60, 0}, {100, 120, 0}, {200, 20, 0}};
  Image<float> refs, images;
  std::vector<PairResult> results;
  std::vector<Assignment> rows;

  // Test 7's images (smooth phantom, psi uniform, shifts in ±5 px, noise-free) of the first
  // two views only, so the third reference stays empty. Seed 17.
  Fixture() {
    const auto blobs = phantom_blobs(PhantomKind::Smooth);
    const std::size_t pixels = std::size_t(kX) * kX, n_ref = views.size(), n_img = 2 * kPerView;
    refs = Image<float>(Shape::image(kX, kX, static_cast<index_t>(n_ref)));
    for (std::size_t r = 0; r < n_ref; ++r) render_projection(blobs, kX, views[r], 0, 0, refs.data() + r * pixels);
    images = Image<float>(Shape::image(kX, kX, static_cast<index_t>(n_img)));
    for (std::size_t i = 0; i < n_img; ++i) {
      geom::EulerAngles v = views[i / kPerView];
      const std::uint32_t s = 17u * 1000u + static_cast<std::uint32_t>(i) * 3u;
      v.psi = 360.0 * uniform01(s, s + 1);
      const double dx = -5 + 10 * uniform01(s + 1, s + 2), dy = -5 + 10 * uniform01(s + 2, s + 3);
      render_projection(blobs, kX, v, dx, dy, images.data() + i * pixels);
    }
    results.resize(n_ref * n_img);
    make_cpu_backend()->align_all(refs.cview(), images.cview(), AlignSettings{}, results.data());
    std::vector<float> cc(results.size());
    for (std::size_t k = 0; k < cc.size(); ++k) cc[k] = results[k].cc;
    const auto weights = significance_weights(cc, n_ref, n_img, views, 10.0);
    rows = assign_best(cc, weights, n_ref, n_img, 1, false);
  }
};

TEST(ClassAverages, AveragesMatchTheirReferencesAndEmptyClassIsZero) {
  const Fixture f;
  const ClassAverages c = class_averages(f.images.cview(), f.rows, f.results, f.views.size());
  const std::size_t pixels = std::size_t(Fixture::kX) * Fixture::kX;
  ASSERT_EQ(c.averages.shape(), Shape::image(Fixture::kX, Fixture::kX, 3));
  std::printf("test 17: class counts %zu %zu %zu\n", c.counts[0], c.counts[1], c.counts[2]);
  EXPECT_EQ(c.counts[0] + c.counts[1] + c.counts[2], 2 * Fixture::kPerView);
  EXPECT_EQ(c.counts[2], 0u) << "no image comes from the third view";
  for (std::size_t r = 0; r < 2; ++r) {
    ASSERT_GT(c.counts[r], 0u);
    const double cc = pearson(c.averages.data() + r * pixels, f.refs.data() + r * pixels, pixels);
    std::printf("test 17: reference %zu: CC(average, reference) %.5f\n", r, cc);
    EXPECT_GE(cc, 0.99);
  }
  const float* empty = c.averages.data() + 2 * pixels;
  EXPECT_TRUE(std::all_of(empty, empty + pixels, [](float v) { return v == 0.0f; }));
}

// Weight sums differing by 10x between the two references (weights injected): each average
// keeps its reference's pixel sum within 2 % (the anchor's running normaliser would make the
// second average ~11x too dark); all-zero weights fall back to the unweighted mean.
TEST(ClassAverages, NormaliserIsPerReference) {
  const Fixture f;
  const std::size_t pixels = std::size_t(Fixture::kX) * Fixture::kX;
  std::vector<Assignment> rows = f.rows, zero = f.rows, ones = f.rows;
  for (std::size_t k = 0; k < rows.size(); ++k) {
    rows[k].weight = rows[k].reference == 0 ? 1.0f : 0.1f;
    zero[k].weight = 0.0f;
    ones[k].weight = 1.0f;
  }
  const ClassAverages c = class_averages(f.images.cview(), rows, f.results, f.views.size());
  for (std::size_t r = 0; r < 2; ++r) {
    const double want = pixel_sum(f.refs.data() + r * pixels, pixels);
    const double got = pixel_sum(c.averages.data() + r * pixels, pixels);
    std::printf("test 17: reference %zu pixel sum %.4f, its average %.4f (ratio %.4f)\n", r, want, got, got / want);
    EXPECT_NEAR(got / want, 1.0, 0.02);
  }
  const ClassAverages cz = class_averages(f.images.cview(), zero, f.results, f.views.size());
  const ClassAverages c1 = class_averages(f.images.cview(), ones, f.results, f.views.size());
  for (std::size_t p = 0; p < 3 * pixels; ++p) ASSERT_FLOAT_EQ(cz.averages[static_cast<index_t>(p)], c1.averages[static_cast<index_t>(p)]);
}

// Batches (docs/align_significant.md#streaming-the-images): images added in order in batches of 5
// give class_averages' result bit for bit; in reverse order the same within float rounding.
TEST(ClassAverages, BatchesGiveTheWholeStacksAverages) {
  const Fixture f;
  const ClassAverages whole = class_averages(f.images.cview(), f.rows, f.results, f.views.size());
  const std::size_t pixels = std::size_t(Fixture::kX) * Fixture::kX;
  const std::size_t n_img = static_cast<std::size_t>(f.images.shape().n);
  auto batch = [&](std::size_t first, std::size_t count) {
    return View<const float>{f.images.data() + first * pixels, Shape::image(Fixture::kX, Fixture::kX, index_t(count))};
  };
  const std::vector<PairResult> of_rows = row_results(f.rows, f.results, n_img);
  ClassAverager in_order(Fixture::kX, f.rows, of_rows, f.views.size(), n_img);
  for (std::size_t first = 0; first < n_img; first += 5) in_order.add(batch(first, std::min<std::size_t>(5, n_img - first)), first);
  const ClassAverages a = in_order.finish();
  EXPECT_EQ(a.counts, whole.counts);
  EXPECT_EQ(0, std::memcmp(a.averages.data(), whole.averages.data(), 3 * pixels * sizeof(float)));
  ClassAverager reversed(Fixture::kX, f.rows, of_rows, f.views.size(), n_img);
  for (std::size_t first = (n_img - 1) / 5 * 5;; first -= 5) {
    reversed.add(batch(first, std::min<std::size_t>(5, n_img - first)), first);
    if (first == 0) break;
  }
  const ClassAverages b = reversed.finish();
  for (std::size_t p = 0; p < 3 * pixels; ++p)
    ASSERT_NEAR(b.averages[static_cast<index_t>(p)], whole.averages[static_cast<index_t>(p)], 1e-5) << p;
}

// MPI (docs/align_significant.md#mpi): two ranks' averagers, each built from every row and given
// only its own images, summed onto one before finish(), give the whole stack's averages (the sums
// are in double; they differ from one running sum only in its rounding).
TEST(ClassAverages, SummedSharesOfRanksGiveTheWholeStacksAverages) {
  const Fixture f;
  const ClassAverages whole = class_averages(f.images.cview(), f.rows, f.results, f.views.size());
  const std::size_t pixels = std::size_t(Fixture::kX) * Fixture::kX;
  const std::size_t n_img = static_cast<std::size_t>(f.images.shape().n), split = n_img / 2 + 1;
  const std::vector<PairResult> of_rows = row_results(f.rows, f.results, n_img);
  auto part = [&](std::size_t first, std::size_t count) {
    return View<const float>{f.images.data() + first * pixels, Shape::image(Fixture::kX, Fixture::kX, index_t(count))};
  };
  ClassAverager root(Fixture::kX, f.rows, of_rows, f.views.size(), n_img);
  ClassAverager other(Fixture::kX, f.rows, of_rows, f.views.size(), n_img);
  root.add(part(0, split), 0);
  other.add(part(split, n_img - split), split);
  ASSERT_EQ(root.sums().size(), 3 * pixels);
  for (std::size_t k = 0; k < root.sums().size(); ++k) root.sums()[k] += other.sums()[k];
  const ClassAverages merged = root.finish();
  EXPECT_EQ(merged.counts, whole.counts);
  for (std::size_t p = 0; p < 3 * pixels; ++p)
    ASSERT_NEAR(merged.averages[static_cast<index_t>(p)], whole.averages[static_cast<index_t>(p)], 1e-5) << p;
  // Each rank alone holds only part of the average: the merge is not a no-op.
  const ClassAverages alone = other.finish();
  bool differs = false;
  for (std::size_t p = 0; p < 3 * pixels && !differs; ++p)
    differs = std::abs(alone.averages[static_cast<index_t>(p)] - whole.averages[static_cast<index_t>(p)]) > 1e-3f;
  EXPECT_TRUE(differs);
}

} // namespace
} // namespace frost::align
