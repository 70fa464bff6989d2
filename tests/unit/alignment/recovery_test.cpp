// End-to-end recovery on the CPU backend (tests 13 and 16 of
// docs/align_significant.md#end-to-end-recovery-tests): sharp phantom, X = 64, 46 Fibonacci
// references, SNR 0.1, defaults (3 iterations, keepBestN 1), run with the default sub-pixel
// refinement and with --subpixel none. Scaled: 60 images instead of 100 for each mode (CI time on 2
// cores); the thresholds are the documented ones.
#include <cstdio>

#include "recovery_fixture.hpp"

namespace frost::align {
namespace {

using namespace recovery;

constexpr int kX = 64, kRefs = 46, kImages = 60;

const PhantomSet& data() {
  static const PhantomSet d = analytic_set(kX, kRefs, kImages, 0.1, 13); // seed of this test's draw
  return d;
}

void run(SubpixelMethod sub) {
  const PhantomSet& d = data();
  AlignSettings s;
  s.subpixel = sub;
  const AllPairs a = align_all_pairs(d, s);
  const Scores o = score(d, a, 0.0);
  const auto best = assign_best(a.cc, a.weights, kRefs, kImages, 1, false);
  const auto best5 = assign_best(a.cc, a.weights, kRefs, kImages, 5, false);

  // Test 16: the first row of each image equals the keepBestN 1 row; corrIdx non-increasing;
  // the true reference among the 5 rows for ≥ 95 % of the images.
  int in5 = 0;
  for (std::size_t k = 0, b = 0; k < best5.size(); ++k) {
    in5 += best5[k].reference == d.truth[best5[k].image].ref;
    if (k == 0 || best5[k].image != best5[k - 1].image) {
      EXPECT_EQ(best5[k].reference, best[b].reference);
      ++b;
    } else {
      EXPECT_LE(best5[k].cc, best5[k - 1].cc);
    }
  }
  const double top5 = double(in5) / kImages;
  std::printf("test 13 (%s, seed 13, %d images x %d refs, %.2f s, %.0f pairs/s): correct %.1f %%, psi median %.2f "
              "p90 %.2f deg, shift median %.2f p90 %.2f px, true-ref psi > 10 deg %.1f %%, true ref in top 5 %.1f %%\n",
              to_string(sub).c_str(), kImages, kRefs, a.seconds, kRefs * kImages / a.seconds, 100 * o.exact,
              o.psi_median, o.psi_p90, o.shift_median, o.shift_p90, 100 * o.true_ref_psi_over_10, 100 * top5);
  expect_test13(o);
  EXPECT_GE(top5, 0.95); // test 16
}

TEST(Recovery, SharpPhantomSnr01Parabolic) { run(SubpixelMethod::Parabolic); }
TEST(Recovery, SharpPhantomSnr01NoSubpixel) { run(SubpixelMethod::None); }

} // namespace
} // namespace frost::align
