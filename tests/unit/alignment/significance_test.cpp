// Significance bookkeeping (test 10 of docs/align_significant.md#significance-and-program-tests):
// hand-computed weights and rows.
#include <vector>

#include "frost/alignment/significance.hpp"
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

} // namespace
} // namespace frost::align
