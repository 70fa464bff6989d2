// Recovery against a denser gallery and mirror checking on the CPU backend (tests 14, 15 and 19 of
// docs/align_significant.md#end-to-end-recovery-tests). Test 18 (--allowInputSwap) and test 20
// (volume mode) exist only in the program and are in tests/apps/align_significant_app_test.cpp.
#include <cstdio>

#include "frost/alignment/pair_aligner.hpp"
#include "recovery_fixture.hpp"

namespace frost::align {
namespace {

using namespace recovery;

constexpr int kX = 64, kGallery = 184, kImages = 60; // 184: Xmipp's count for 15° sampling

/// Tests 14 and 15: sharp phantom, 184 Fibonacci references, 60 images at `snr` (draw `seed`,
/// noise seeds 1000 + i), 3 iterations, keepBestN 1. "Spacing" is the gallery's median
/// nearest-neighbour angle (14.2°; the original design says 14°). Run in both sub-pixel modes: the
/// prototype's numbers are for `none`, the program's default is parabolic.
Scores gallery_run(int test, double snr, std::uint32_t seed, SubpixelMethod sub) {
  const PhantomSet d = analytic_set(kX, kGallery, kImages, snr, seed);
  const double spacing = median_spacing(d.dirs);
  AlignSettings s;
  s.subpixel = sub;
  const AllPairs a = align_all_pairs(d, s);
  const Scores o = score(d, a, 1.5 * spacing);
  std::printf("test %d (%s, SNR %g, seed %u, %d images x %d refs, spacing %.1f deg, %.2f s, %.0f pairs/s): within "
              "1.5 x spacing %.1f %%, exact %.1f %%, psi median %.2f p90 %.2f deg, shift median %.2f p90 %.2f px\n",
              test, to_string(sub).c_str(), snr, seed, kImages, kGallery, spacing, a.seconds,
              kGallery * kImages / a.seconds, 100 * o.near, 100 * o.exact, o.psi_median, o.psi_p90, o.shift_median,
              o.shift_p90);
  return o;
}

// Test 14: SNR 0.1; within 1.5 × spacing ≥ 72 %, exact ≥ 55 % (prototype, none: 87 %, 73 %).
TEST(RecoveryGallery, DenserGallerySnr01) {
  for (SubpixelMethod sub : {SubpixelMethod::Parabolic, SubpixelMethod::None}) {
    const Scores o = gallery_run(14, 0.1, 14, sub);
    EXPECT_GE(o.near, 0.72);
    EXPECT_GE(o.exact, 0.55);
  }
}

// Test 15: SNR 1; within 1.5 × spacing ≥ 95 %, exact ≥ 83 %, median ψ error ≤ 1.5°, median
// shift error ≤ 0.6 px (prototype, none: 100 %, 93 %, 0.78°, 0.38 px). Not 100 %: the in-plane
// search is local, a few images prefer a neighbour or a wrong angle.
TEST(RecoveryGallery, DenserGallerySnr1) {
  for (SubpixelMethod sub : {SubpixelMethod::Parabolic, SubpixelMethod::None}) {
    const Scores o = gallery_run(15, 1.0, 15, sub);
    EXPECT_GE(o.near, 0.95);
    EXPECT_GE(o.exact, 0.83);
    EXPECT_LE(o.psi_median, 1.5);
    EXPECT_LE(o.shift_median, 0.6);
  }
}

// Test 19: test 7's images (smooth phantom, view (30, 60), seed 7) mirrored x → −x after
// rendering. With mirror checking every result is flipped and carries the pose of the image
// before mirroring within test 7's bounds; without, none is flipped and each CC is lower by
// ≥ 0.02 (prototype: smallest gap 0.049). Scaled like test 7: 50 images instead of 100.
TEST(RecoveryGallery, MirroredImagesAreFlippedWithTheUnmirroredPose) {
  const auto blobs = phantom_blobs(PhantomKind::Smooth);
  const Image<float> ref = render_projection(blobs, kX, {30, 60, 0});
  const auto set = samples(blobs, kX, {30, 60, 0}, 50, 5.0, 7);
  const std::size_t px = std::size_t(kX) * kX;
  Image<float> mirrored(Shape::image(kX, kX, static_cast<index_t>(set.size())));
  for (std::size_t k = 0; k < set.size(); ++k) mirror_x(set[k].image.data(), kX, kX, mirrored.data() + k * px);
  const double delta = CpuPairAligner(kX, kX).grid().step_deg();

  auto backend = make_cpu_backend();
  for (const auto& [sub, iters] :
       {std::pair{SubpixelMethod::None, 3}, {SubpixelMethod::Parabolic, 3}, {SubpixelMethod::Parabolic, 5}}) {
    AlignSettings s;
    s.subpixel = sub;
    s.iters = iters;
    std::vector<PairResult> plain(set.size()), checked(set.size());
    backend->align_all(ref.cview(), mirrored.cview(), s, plain.data());
    s.check_mirrors = true;
    backend->align_all(ref.cview(), mirrored.cview(), s, checked.data());

    const std::string what = to_string(sub) + ", " + std::to_string(iters) + " iterations";
    double min_gap = 2;
    for (std::size_t k = 0; k < set.size(); ++k) {
      EXPECT_EQ(checked[k].flip, 1.0f) << what << ", image " << k;
      EXPECT_EQ(plain[k].flip, 0.0f) << what << ", image " << k;
      min_gap = std::min(min_gap, double(checked[k].cc) - plain[k].cc);
    }
    const PoseErrors e = pose_errors(checked, set);
    expect_within(e, test7_bounds(s, delta), what);
    EXPECT_GE(min_gap, 0.02) << what;
    std::printf("test 19 (%s, seed 7, 50 images): max psi %.3f deg, max shift %.3f px, min cc %.5f; smallest CC "
                "gain of --check-mirrors %.3f\n",
                what.c_str(), e.max_psi, e.max_shift, e.min_cc, min_gap);
  }
}

} // namespace
} // namespace frost::align
