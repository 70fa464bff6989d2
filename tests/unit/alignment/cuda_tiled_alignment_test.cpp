// The tiled shift step (alignment_tiled.hpp) against the CPU estimator, one step and end to end.
// GPU cases skip without a GPU.
//
// Bounds (block FFTs vs FFTW, everything else the same FROST_HD code):
// * one shift step: the shift within 1e-3 px of CpuPairAligner::estimate_shift on the same
//   aligned image, for 3 trajectories (the third alone in its pair) from a non-identity pose, from
//   the identity and from the identity's pair transforms, at 32, 64, 256 and 512 px, with the default
//   search radius X/4 and with X/2 − 1 (every row of the correlation map read; at 256 px the peak
//   kernel's rows in 4 chunks, at X/4 in 2; 4e-3 px at 512, see shift_tolerance_px);
// * end to end (12 references x 30 images at 64 px, the tiled step forced where the one-block
//   step would run; also in batches of 8 and 5; and at 512 px by default): >= 98 % of all pairs
//   agree with the CPU (psi 0.1°, shift 0.05 px, CC 1e-3), as the other pipelines.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cuda_align_fixtures.hpp"
#include "cuda_test_helpers.hpp"
#include "frost/alignment/pair_aligner.hpp"
#include "frost/cuda/alignment.hpp"
#include "frost/cuda/alignment_fused.hpp"
#include "frost/cuda/alignment_tiled.hpp"
#include "frost/test/support.hpp"

namespace frost::align {
namespace {

namespace ts = cuda::tiled_shift;
using namespace test_helpers;

/// At 512 px the correlation peak is flat for its height (a sum over 4x the pixels), and float
/// rounding of the peak and its neighbours (~1e-6 of the peak) moves the parabola's vertex by up
/// to 2e-3 px (measured on an H100; the CPU's FFTW rounds as well).
double shift_tolerance_px(int x) { return x <= 256 ? 1e-3 : 4e-3; }

TEST(CudaAlignTiled, SupportedSizes) {
  EXPECT_TRUE(ts::supported(256, 64));
  EXPECT_TRUE(ts::supported(32, 8));
  EXPECT_FALSE(ts::supported(48, 12)); // not a power of two
  EXPECT_TRUE(ts::supported(256, 127));   // every row: the peak kernel's 128 row pairs go in chunks
  EXPECT_FALSE(ts::supported(1024, 64));  // a column group of 1024 px does not fit in shared memory
}

TEST(CudaAlignTiled, ShiftStepMatchesCpu) {
  FROST_REQUIRE_GPU();
  for (int x : {32, 64, 256, 512}) {
    ShiftCase c(x);
    const std::size_t px = c.px;
    DeviceBuffer<float2> tw(std::size_t(x / 2)), spec(px), pre(2 * px), columns(2 * px);
    cuda::fused_align::upload_twiddles(x, tw.data(), nullptr);
    auto d_ref = upload(c.ref), d_raw = upload(c.raw);
    // Scratch of one pair: the three images' two pairs go through it one after the other.
    ts::spectra(d_ref.data(), 1, 1, x, tw.data(), columns.data(), 1, spec.data(), nullptr);
    ts::spectra(d_raw.data(), 2, 3, x, tw.data(), columns.data(), 1, pre.data(), nullptr);
    for (int radius : {x / 4, x / 2 - 1}) {
      if (!ts::supported(x, radius)) continue;
      DeviceBuffer<float2> rows(3 * ts::row_scratch(x, radius));
      for (int mode = 0; mode < 3; ++mode) { // from a pose, from the identity, from the identity's pair transforms
        const bool first = mode > 0;
        for (SubpixelMethod sub : {SubpixelMethod::None, SubpixelMethod::Parabolic, SubpixelMethod::Centroid3}) {
          const std::vector<Pose2> start = c.start(first);
          auto d_poses = upload(start);
          ts::shift_step(d_raw.data(), mode == 2 ? pre.data() : nullptr, spec.data(), tw.data(), x,
                         radius, sub, first, d_poses.data(), columns.data(), rows.data(), 3, nullptr);
          const auto got = download(d_poses);
          for (int t = 0; t < 3; ++t) {
            const Pose2 want = c.expected(t, start[std::size_t(t)], first, radius, sub);
            const Pose2& gp = got[std::size_t(t)];
            const std::string what = "X " + std::to_string(x) + " radius " + std::to_string(radius) + " t " +
                                     std::to_string(t) + " " + to_string(sub) + (first ? " first" : "") +
                                     (mode == 2 ? " (pair transforms)" : "");
            EXPECT_NEAR(gp.a02, want.a02, shift_tolerance_px(x)) << what;
            EXPECT_NEAR(gp.a12, want.a12, shift_tolerance_px(x)) << what;
            EXPECT_FLOAT_EQ(gp.a00, want.a00) << what;
          }
        }
      }
    }
  }
}

/// The whole backend with the tiled shift step at 64 px (where the one-block step would run),
/// in one batch and in batches of 8 and 5 (odd batches: no precomputed pair transforms).
TEST(CudaAlignTiled, EndToEndMatchesCpu) {
  FROST_REQUIRE_GPU();
  const SmallRun data(64);
  const auto cpu = data.run(*make_cpu_backend());
  for (int batch : {2048, 8, 5}) {
    cuda::CudaAlignOptions o;
    o.tiled_shift_everywhere = true;
    o.max_batch = batch;
    EXPECT_GE(share_close(data.run(*cuda::make_cuda_align_backend(o)), cpu), 0.98) << "batches of " << batch;
  }
}

/// At 512 px the tiled shift step is the default (the one-block step does not fit), and the
/// rotation step samples the warped image (aligned_samples' quadrant does not fit either).
TEST(CudaAlignTiled, EndToEndAt512MatchesCpu) {
  FROST_REQUIRE_GPU();
  const SmallRun data(512);
  EXPECT_GE(share_close(data.run(*cuda::make_cuda_align_backend({})), data.run(*make_cpu_backend())), 0.98);
}

} // namespace
} // namespace frost::align
