// Significance bookkeeping (test 10 of docs/align_significant.md#significance-and-program-tests):
// hand-computed weights and rows; the weights and rows against the definition computed the
// direct way (one sorted pool per reference), bit for bit, for several thread counts; NaN CCs.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <numeric>
#include <random>
#include <tuple>
#include <vector>

#include "frost/alignment/significance.hpp"
#include "frost/core/threads.hpp"
#include "frost/test/support.hpp"

namespace frost::align {
namespace {

struct Case {
  // r0 = (0, 0), r1 = (0, 8), r2 = (0, 90): N(r0) = N(r1) = {r0, r1}, N(r2) = {r2} at 10°.
  std::vector<geom::EulerAngles> dirs{{0, 0, 0}, {0, 8, 0}, {0, 90, 0}};
  std::vector<float> cc{0.5f, 0.1f, 0.4f, 0.3f, 0.2f, -0.1f}; // row = reference, column = image
  std::vector<float> w = significance_weights(cc, 3, 2, dirs, 10.0);
};

TEST(Significance, HandComputedWeights) {
  Case c;
  const std::vector<double> expected{1.0, 0.0, 0.8 * 2.0 / 3.0, 0.6 / 3.0, 1.0, 0.0};
  for (std::size_t k = 0; k < expected.size(); ++k) EXPECT_NEAR(c.w[k], expected[k], 1e-6) << "entry " << k;
}

TEST(Significance, KeepBestTwoByCC) {
  Case c;
  const auto rows = assign_best(c.cc, c.w, 3, 2, 2, false);
  ASSERT_EQ(rows.size(), 4u);
  const std::size_t img[] = {0, 0, 1, 1}, ref[] = {0, 1, 1, 0};
  const double weight[] = {1.0, 0.8 * 2 / 3.0, 0.2, 0.0}, max_cc[] = {0.5, 0.5, 0.3, 0.3};
  for (std::size_t k = 0; k < 4; ++k) {
    EXPECT_EQ(rows[k].image, img[k]) << k;
    EXPECT_EQ(rows[k].reference, ref[k]) << k;
    EXPECT_NEAR(rows[k].weight, weight[k], 1e-6) << k;
    EXPECT_NEAR(rows[k].max_vote, max_cc[k], 1e-6) << k;
  }
}

TEST(Significance, NegativeVotesAreNeverWritten) {
  Case c;
  const auto rows = assign_best(c.cc, c.w, 3, 2, 3, false);
  int image1 = 0;
  for (const auto& r : rows) image1 += r.image == 1;
  EXPECT_EQ(rows.size(), 5u);
  EXPECT_EQ(image1, 2); // r2 has a negative CC with image 1
}

TEST(Significance, KeepBestOneByWeightBreaksTiesToLowerIndex) {
  Case c;
  const auto rows = assign_best(c.cc, c.w, 3, 2, 1, true);
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].reference, 0u); // tie 1.0 with r2
  EXPECT_NEAR(rows[0].max_vote, 1.0, 1e-6);
  EXPECT_EQ(rows[1].reference, 1u);
  EXPECT_NEAR(rows[1].max_vote, 0.2, 1e-6);
}

TEST(Significance, SingleImageIsolatedReferenceHasCdfOne) {
  // M_r = 1: Xmipp divides by zero; the toolkit sets cdf = 1 (quirk 13).
  const std::vector<geom::EulerAngles> dirs{{0, 0, 0}, {0, 90, 0}};
  const std::vector<float> cc{0.4f, 0.2f};
  const auto w = significance_weights(cc, 2, 1, dirs, 10.0);
  EXPECT_NEAR(w[0], 1.0, 1e-6);
  EXPECT_NEAR(w[1], 1.0, 1e-6);
}

constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

TEST(Significance, NaNIsLeftOutOfThePoolMinusInfinityIsNot) {
  // One isolated reference, three images. −∞ is an entry of the pool below every CC (M = 3):
  // 0.25 has position 1 of 2. NaN is no entry (M = 2): 0.25 has position 0 of 1.
  const std::vector<geom::EulerAngles> dirs{{0, 0, 0}, {0, 90, 0}};
  const auto with_inf = significance_weights({-kInf, 0.25f, 0.5f, 0.1f, 0.2f, 0.3f}, 2, 3, dirs, 10.0);
  EXPECT_EQ(with_inf[0], 0.0f);
  EXPECT_NEAR(with_inf[1], 0.5 * 0.5, 1e-7);
  EXPECT_EQ(with_inf[2], 1.0f);
  const auto with_nan = significance_weights({kNaN, 0.25f, 0.5f, 0.1f, 0.2f, 0.3f}, 2, 3, dirs, 10.0);
  EXPECT_EQ(with_nan[0], 0.0f);
  EXPECT_EQ(with_nan[1], 0.0f);
  EXPECT_EQ(with_nan[2], 1.0f);
  for (std::size_t k = 3; k < 6; ++k) EXPECT_EQ(with_nan[k], with_inf[k]) << "entry " << k; // r1 unaffected
}

TEST(Significance, AllNaNRowGivesZerosAndLeavesNeighboursAlone) {
  // r0 and r1 are neighbours; r0 has only NaN, so r1's pool is its own row: {0.2, 0.4}.
  const std::vector<geom::EulerAngles> dirs{{0, 0, 0}, {0, 8, 0}};
  const auto w = significance_weights({kNaN, kNaN, 0.2f, 0.4f}, 2, 2, dirs, 10.0);
  EXPECT_EQ(w[0], 0.0f);
  EXPECT_EQ(w[1], 0.0f);
  EXPECT_EQ(w[2], 0.0f);
  EXPECT_EQ(w[3], 1.0f);
}

TEST(Significance, NaNVoteNeitherWrittenNorHidingOthers) {
  // Votes (row = reference): image 0 has NaN, 0.5, 0.7 and image 1 has 0.1, 0.2, NaN. The NaN
  // orders last, so both positive votes of each image are kept.
  const std::vector<float> cc{kNaN, 0.1f, 0.5f, 0.2f, 0.7f, kNaN};
  const std::vector<float> weights(6, 0.0f);
  const auto rows = assign_best(cc, weights, 3, 2, 3, false);
  ASSERT_EQ(rows.size(), 4u);
  const std::size_t img[] = {0, 0, 1, 1}, ref[] = {2, 1, 1, 0};
  const float max_vote[] = {0.7f, 0.7f, 0.2f, 0.2f};
  for (std::size_t k = 0; k < 4; ++k) {
    EXPECT_EQ(rows[k].image, img[k]) << k;
    EXPECT_EQ(rows[k].reference, ref[k]) << k;
    EXPECT_EQ(rows[k].max_vote, max_vote[k]) << k;
  }
}

// The definition computed the direct way (the toolkit's algorithm before the row-sorted walk):
// for every reference the pool of its neighbourhood's CCs, NaN left out, sorted by
// (CC, reference, image); an entry of the reference at position k weighs c / max · k / (M − 1).
std::vector<float> pool_weights(const std::vector<float>& cc, std::size_t n_ref, std::size_t n_img,
                                const std::vector<geom::EulerAngles>& directions, double ang_distance) {
  std::vector<geom::Vec3d> dir(n_ref);
  for (std::size_t r = 0; r < n_ref; ++r) dir[r] = geom::projection_direction(directions[r].rot, directions[r].tilt);
  const double cos_limit = std::cos(ang_distance * M_PI / 180.0);
  std::vector<float> weights(n_ref * n_img, 0.0f);
  struct Entry {
    float cc;
    std::size_t ref, img;
  };
  for (std::size_t r = 0; r < n_ref; ++r) {
    std::vector<Entry> pool;
    for (std::size_t q = 0; q < n_ref; ++q) {
      const double c = dir[r].x * dir[q].x + dir[r].y * dir[q].y + dir[r].z * dir[q].z;
      if (q != r && c < cos_limit) continue;
      for (std::size_t i = 0; i < n_img; ++i)
        if (!std::isnan(cc[q * n_img + i])) pool.push_back({cc[q * n_img + i], q, i});
    }
    std::sort(pool.begin(), pool.end(), [](const Entry& a, const Entry& b) {
      return std::tie(a.cc, a.ref, a.img) < std::tie(b.cc, b.ref, b.img);
    });
    if (pool.empty() || !(pool.back().cc > 0)) continue;
    const float max_cc = pool.back().cc;
    const std::size_t m = pool.size();
    for (std::size_t k = 0; k < m; ++k) {
      const Entry& e = pool[k];
      if (e.ref != r || !(e.cc > 0)) continue;
      const double cdf = m == 1 ? 1.0 : double(k) / double(m - 1);
      weights[r * n_img + e.img] = static_cast<float>(double(e.cc) / max_cc * cdf);
    }
  }
  return weights;
}

// Rows the direct way: for each image every reference by decreasing vote (ties to the lower
// index) and the first keep_best with a positive vote. Votes without NaN.
std::vector<Assignment> sorted_assignment(const std::vector<float>& cc, const std::vector<float>& weights,
                                          std::size_t n_ref, std::size_t n_img, std::size_t keep_best,
                                          bool use_weight) {
  const std::vector<float>& votes = use_weight ? weights : cc;
  std::vector<Assignment> out;
  for (std::size_t i = 0; i < n_img; ++i) {
    std::vector<std::size_t> order(n_ref);
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return votes[a * n_img + i] > votes[b * n_img + i]; });
    for (std::size_t j = 0; j < std::min(keep_best, n_ref); ++j) {
      const std::size_t r = order[j];
      if (!(votes[r * n_img + i] > 0)) break;
      out.push_back({i, r, cc[r * n_img + i], weights[r * n_img + i], votes[order[0] * n_img + i]});
    }
  }
  return out;
}

std::uint32_t bits(float x) {
  std::uint32_t b = 0;
  std::memcpy(&b, &x, sizeof b);
  return b;
}

/// A CC matrix with many ties: values from a short list (with −0, +0 and −∞), or with
/// `extremes` also +∞ and NaN.
std::vector<float> tied_ccs(std::size_t n, std::mt19937& rng, bool extremes) {
  const std::vector<float> levels{-kInf, -0.5f, -0.0f, 0.0f, 0.125f, 0.25f, 0.5f, 0.75f, 0.875f};
  std::vector<float> cc(n);
  for (float& c : cc) {
    c = levels[rng() % levels.size()];
    if (extremes && rng() % 16 == 0) c = rng() % 2 ? kNaN : kInf;
  }
  return cc;
}

/// Directions on whole degrees, so some coincide and neighbourhoods tie.
std::vector<geom::EulerAngles> random_directions(std::size_t n, std::mt19937& rng) {
  std::vector<geom::EulerAngles> dirs(n);
  for (auto& d : dirs) d = {double(rng() % 360), double(rng() % 181), 0.0};
  return dirs;
}

/// Restores the default thread rule when the test ends, pass or fail.
struct ThreadCountGuard {
  ~ThreadCountGuard() { frost::set_num_threads(0); }
};

TEST(Significance, WeightsEqualThePoolDefinitionBitForBit) {
  const ThreadCountGuard guard;
  struct Shape {
    std::size_t n_ref, n_img;
    bool extremes;
  };
  const Shape shapes[] = {{37, 23, false}, {53, 41, true}, {29, 1, false}, {19, 67, true}};
  std::mt19937 rng(29);
  for (const Shape& shape : shapes) {
    const auto dirs = random_directions(shape.n_ref, rng);
    const auto cc = tied_ccs(shape.n_ref * shape.n_img, rng, shape.extremes);
    for (const double radius : {0.0, 10.0, 35.0, 90.0, 180.0}) {
      const auto expected = pool_weights(cc, shape.n_ref, shape.n_img, dirs, radius);
      for (const int threads : {1, 3}) {
        frost::set_num_threads(threads);
        const auto w = significance_weights(cc, shape.n_ref, shape.n_img, dirs, radius);
        ASSERT_EQ(w.size(), expected.size());
        for (std::size_t k = 0; k < w.size(); ++k)
          EXPECT_EQ(bits(w[k]), bits(expected[k]))
              << shape.n_ref << " x " << shape.n_img << ", " << radius << " deg, " << threads << " threads, entry "
              << k << ": " << w[k] << " vs " << expected[k];
      }
    }
  }
}

TEST(Significance, RowsEqualTheSortedDefinitionForAnyThreadCount) {
  const ThreadCountGuard guard;
  std::mt19937 rng(31);
  const std::size_t n_ref = 41, n_img = 37;
  const auto dirs = random_directions(n_ref, rng);
  const auto cc = tied_ccs(n_ref * n_img, rng, false);
  const auto w = pool_weights(cc, n_ref, n_img, dirs, 35.0);
  for (const bool use_weight : {false, true})
    for (const std::size_t keep : {std::size_t{1}, std::size_t{3}, n_ref}) {
      const auto expected = sorted_assignment(cc, w, n_ref, n_img, keep, use_weight);
      for (const int threads : {1, 3}) {
        frost::set_num_threads(threads);
        const auto rows = assign_best(cc, w, n_ref, n_img, keep, use_weight);
        ASSERT_EQ(rows.size(), expected.size()) << keep << " kept, " << threads << " threads";
        for (std::size_t k = 0; k < rows.size(); ++k) {
          EXPECT_EQ(rows[k].image, expected[k].image) << k;
          EXPECT_EQ(rows[k].reference, expected[k].reference) << k;
          EXPECT_EQ(bits(rows[k].cc), bits(expected[k].cc)) << k;
          EXPECT_EQ(bits(rows[k].weight), bits(expected[k].weight)) << k;
          EXPECT_EQ(bits(rows[k].max_vote), bits(expected[k].max_vote)) << k;
        }
      }
    }
}

} // namespace
} // namespace frost::align
