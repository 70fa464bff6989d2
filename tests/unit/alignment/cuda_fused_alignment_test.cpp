// The fused shift and rotation steps (alignment_fused.hpp) against the CPU estimator, and the
// whole backend with and without them. GPU cases skip without a GPU.
//
// Bounds (block FFTs vs FFTW, everything else the same FROST_HD code):
// * one shift step: the shift within 1e-3 px of CpuPairAligner::estimate_shift on the same
//   aligned image, for 3 trajectories (the third alone in its block) from a non-identity pose
//   and from the identity (`first`, also from the raw pairs' transforms); the polar samples written for the next step within 1e-5
//   (max abs / max) of polar_sample() of CpuPairAligner::warp with the new pose;
// * aligned_samples (the rotation step's input after a tiled shift step): the same bound against
//   polar_sample() of CpuPairAligner::warp, at 32 to 256 px;
// * one rotation step: θ within 1e-3° of estimate_rotation, at 32, 64, 128 and 256 px
//   (rings of N = 200, 512, 800, 1600: radix-5 and radix-2 block FFTs), sampling the images
//   itself and reading precomputed samples;
// * the first rotation step from the pairs' precomputed ring spectra: the same poses, bit for
//   bit, as from their samples (32, 64, 128 px);
// * the CC of the on-the-fly warp within 1e-6 of warp + correlation on the CPU;
// * end to end on small runs (12 references x 30 images): >= 98 % of all pairs agree with the CPU
//   (psi 0.1°, shift 0.05 px, CC 1e-3) for the cuFFT pipeline and the fused steps at 64 px, and for
//   the cuFFT shift step with the fused rotation step at 48 px (not a power of two; also in
//   batches of 8 and 5).
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <cstring>
#include <vector>

#include "cuda_align_fixtures.hpp"
#include "cuda_test_helpers.hpp"
#include "frost/alignment/analytic_phantom.hpp"
#include "frost/alignment/backend.hpp"
#include "frost/alignment/directions.hpp"
#include "frost/alignment/pair_aligner.hpp"
#include "frost/cuda/alignment.hpp"
#include "frost/cuda/alignment_fused.hpp"
#include "frost/cuda/alignment_kernels.hpp"
#include "frost/test/support.hpp"

namespace frost::align {
namespace {

namespace fa = cuda::fused_align;
using namespace test_helpers;

constexpr double kFusedShiftPx = 1e-3, kFusedAngleDeg = 1e-3, kFusedWarpRel = 1e-5, kFusedCcAbs = 1e-6;

TEST(CudaAlignFused, ShiftStepMatchesCpu) {
  FROST_REQUIRE_GPU();
  for (int x : {32, 64, 128}) {
    ShiftCase c(x);
    const std::size_t px = c.px;
    const PolarGrid g = make_polar_grid(x);
    const std::size_t per = std::size_t(g.rings()) * g.samples;
    DeviceBuffer<float2> tw(std::size_t(x / 2)), spec(px), pre(2 * px);
    fa::upload_twiddles(x, tw.data(), nullptr);
    auto d_ref = upload(c.ref), d_raw = upload(c.raw), d_sin = upload(sin_cos_table(g, true)),
         d_cos = upload(sin_cos_table(g, false));
    fa::reference_spectra(d_ref.data(), x, tw.data(), spec.data(), 1, nullptr);
    fa::pair_spectra(d_raw.data(), x, tw.data(), pre.data(), 3, nullptr);
    for (int mode = 0; mode < 3; ++mode) { // from a pose, from the identity, from the identity's pair transforms
      const bool first = mode > 0;
      for (SubpixelMethod sub : {SubpixelMethod::None, SubpixelMethod::Parabolic, SubpixelMethod::Centroid3}) {
        const std::vector<Pose2> start = c.start(first);
        auto d_poses = upload(start);
        DeviceBuffer<float> d_samples(3 * per);
        fa::shift_step(d_raw.data(), mode == 2 ? pre.data() : nullptr, spec.data(), tw.data(), x, x / 4,
                       sub, first, d_poses.data(), d_samples.data(), g, d_sin.data(), d_cos.data(), 3, nullptr);
        const auto got = download(d_poses);
        const auto samples = download(d_samples);
        const auto sv = sin_cos_table(g, true), cv = sin_cos_table(g, false);
        for (int t = 0; t < 3; ++t) {
          const float* img = c.raw.data() + std::size_t(t) * px;
          std::vector<float> want_aligned(px);
          const Pose2 want = c.expected(t, start[std::size_t(t)], first, x / 4, sub);
          const Pose2& gp = got[std::size_t(t)];
          const std::string what = "X " + std::to_string(x) + " t " + std::to_string(t) + " " + to_string(sub) +
                                   (first ? " first" : "") + (mode == 2 ? " (pair transforms)" : "");
          EXPECT_NEAR(gp.a02, want.a02, kFusedShiftPx) << what;
          EXPECT_NEAR(gp.a12, want.a12, kFusedShiftPx) << what;
          EXPECT_FLOAT_EQ(gp.a00, want.a00) << what;
          c.cpu.warp(img, gp, want_aligned.data());
          std::vector<float> want_samples;
          for (int q = 0; q < g.rings(); ++q)
            for (int k = 0; k < g.samples; ++k)
              want_samples.push_back(polar_sample(want_aligned.data(), g, g.first_ring + q, sv[std::size_t(k)],
                                                  cv[std::size_t(k)]));
          const std::vector<float> got_samples(samples.begin() + std::ptrdiff_t(t * per),
                                               samples.begin() + std::ptrdiff_t((t + 1) * per));
          EXPECT_LE(max_rel(got_samples, want_samples), kFusedWarpRel) << what;
        }
      }
    }
  }
}

TEST(CudaAlignFused, AlignedSamplesMatchCpu) {
  FROST_REQUIRE_GPU();
  for (int x : {32, 64, 128, 256}) {
    if (!fa::aligned_samples_supported(x)) {
      ADD_FAILURE() << "aligned_samples must run at " << x << " px on the GPUs we target";
      continue;
    }
    ShiftCase c(x);
    const PolarGrid g = make_polar_grid(x);
    const std::size_t per = std::size_t(g.rings()) * g.samples;
    const std::vector<Pose2> poses = c.start(false);
    auto d_raw = upload(c.raw), d_sin = upload(sin_cos_table(g, true)), d_cos = upload(sin_cos_table(g, false));
    auto d_poses = upload(poses);
    DeviceBuffer<float> d_samples(3 * per);
    fa::aligned_samples(d_raw.data(), d_poses.data(), g, d_sin.data(), d_cos.data(), d_samples.data(), 3, nullptr);
    const auto got = download(d_samples);
    const auto sv = sin_cos_table(g, true), cv = sin_cos_table(g, false);
    for (int t = 0; t < 3; ++t) {
      std::vector<float> aligned(c.px), want;
      c.cpu.warp(c.raw.data() + std::size_t(t) * c.px, poses[std::size_t(t)], aligned.data());
      for (int q = 0; q < g.rings(); ++q)
        for (int k = 0; k < g.samples; ++k)
          want.push_back(polar_sample(aligned.data(), g, g.first_ring + q, sv[std::size_t(k)], cv[std::size_t(k)]));
      const std::vector<float> mine(got.begin() + std::ptrdiff_t(t * per), got.begin() + std::ptrdiff_t((t + 1) * per));
      EXPECT_LE(max_rel(mine, want), kFusedWarpRel) << "X " << x << " t " << t;
    }
  }
}

/// The rotation steps' device inputs at X: the reference's ring spectra (fused reference_rings)
/// and the polar samples (S per ring) of the three raw images.
struct RingInputs {
  PolarGrid g;
  int n;
  DeviceBuffer<float2> tw, rings;
  DeviceBuffer<float> d_ref, d_raw, d_sin, d_cos, d_samples;
  RingInputs(int x, const std::vector<float>& ref, const std::vector<float>& raw)
      : g(make_polar_grid(x)), n(fa::ring_length(g.samples)), tw(std::size_t(n / 2)),
        rings(std::size_t(g.rings()) * fa::ring_values(n)), d_ref(upload(ref)), d_raw(upload(raw)),
        d_sin(upload(sin_cos_table(g, true))), d_cos(upload(sin_cos_table(g, false))),
        d_samples(3 * std::size_t(g.rings()) * g.samples) {
    fa::upload_twiddles(n, tw.data(), nullptr);
    fa::reference_rings(d_ref.data(), g, d_sin.data(), d_cos.data(), tw.data(), rings.data(), 1, nullptr);
    cuda::align_kernels::polar(d_raw.data(), g, g.samples, d_sin.data(), d_cos.data(), d_samples.data(), 3, nullptr);
  }
};

/// The frequency at position p of a block FFT of n = 2^a·5^b points (block_fft.cuh,
/// frequency_at): radix-5 digits reversed, then the bit reversal of the radix-2 part.
int block_fft_frequency(int p, int n) {
  int a = 0;
  while (n % (2 << a) == 0) ++a;
  const int odd = n >> a, hi = p >> a, lo = p & ((1 << a) - 1);
  int rev = 0;
  for (int i = 0; i < a; ++i)
    if (lo & (1 << i)) rev |= 1 << (a - 1 - i);
  return (odd == 25 ? (hi % 5) * 5 + hi / 5 : hi) + odd * rev;
}

TEST(CudaAlignFused, RingLengthHasFewestPassesThenFewestPoints) {
  // 2S = 172, 376, 776, 1580: 200 = 25·8 (3 passes, as 256); 512 (3 passes; 400 = 25·16 takes
  // 4); 800 = 25·32 (4, as 1024); 1600 = 25·64 (4, as 2048).
  EXPECT_EQ(fa::ring_length(make_polar_grid(32).samples), 200);
  EXPECT_EQ(fa::ring_length(make_polar_grid(64).samples), 512);
  EXPECT_EQ(fa::ring_length(make_polar_grid(128).samples), 800);
  EXPECT_EQ(fa::ring_length(make_polar_grid(256).samples), 1600);
  EXPECT_EQ(fa::ring_length(40), 80); // 2^4·5
}

/// The reference's ring spectra (block FFTs of n = 200 ... 1600 points, radix 5 and 2) against a
/// double-precision DFT of the CPU's polar samples zero-padded to n, at the positions the block
/// FFT's order gives (for n > 1024 read through the Hermitian half layout of reference_rings:
/// position 2w at w, the frequencies 0 and n/2 at 0, the negatives as conjugates): max error / max
/// magnitude <= 1e-5 per ring (float32 FFTs of <= 1600 points).
TEST(CudaAlignFused, RingSpectraAreTheDftInBlockOrder) {
  FROST_REQUIRE_GPU();
  for (int x : {32, 64, 128, 256}) {
    const geom::EulerAngles dir{10, 40, 0};
    const auto ref = reference(x, dir), raw = three_images(x, dir);
    const RingInputs in(x, ref, raw);
    const int n = in.n, s = in.g.samples, per = fa::ring_values(n);
    const auto got = download(in.rings);
    std::vector<int> position(static_cast<std::size_t>(n));
    for (int p = 0; p < n; ++p) position[std::size_t(block_fft_frequency(p, n))] = p;
    // G at position p of ring q (from the Hermitian half for long rings).
    auto at = [&](int q, int p) -> std::complex<double> {
      const float2* r = got.data() + std::size_t(q) * per;
      if (!fa::hermitian_rings(n)) return {r[p].x, r[p].y};
      if (p < 2) return {p == 0 ? r[0].x : r[0].y, 0.0};
      if (p % 2 == 0) return {r[p / 2].x, r[p / 2].y};
      const int f = block_fft_frequency(p, n), mp = position[std::size_t(n - f)]; // even: k < n/2
      return {r[mp / 2].x, -r[mp / 2].y};
    };
    const auto sv = sin_cos_table(in.g, true), cv = sin_cos_table(in.g, false);
    for (int q : {0, in.g.rings() / 2, in.g.rings() - 1}) {
      std::vector<double> samples(static_cast<std::size_t>(s));
      for (int k = 0; k < s; ++k)
        samples[std::size_t(k)] =
            polar_sample(ref.data(), in.g, in.g.first_ring + q, sv[std::size_t(k)], cv[std::size_t(k)]);
      double err = 0, mag = 0;
      for (int p = 0; p < n; ++p) {
        const int f = block_fft_frequency(p, n);
        double re = 0, im = 0;
        for (int t = 0; t < s; ++t) {
          const double a = -2.0 * M_PI * double((static_cast<long long>(f) * t) % n) / n;
          re += samples[std::size_t(t)] * std::cos(a);
          im += samples[std::size_t(t)] * std::sin(a);
        }
        const std::complex<double> v = at(q, p);
        err = std::max(err, std::hypot(v.real() - re, v.imag() - im));
        mag = std::max(mag, std::hypot(re, im));
      }
      EXPECT_LE(err / mag, 1e-5) << "X " << x << " n " << n << " ring " << q;
    }
  }
}

TEST(CudaAlignFused, RotationStepMatchesCpu) {
  FROST_REQUIRE_GPU();
  for (int x : {32, 64, 128, 256}) {
    const geom::EulerAngles dir{10, 40, 0};
    const auto ref = reference(x, dir), raw = three_images(x, dir);
    const std::size_t px = std::size_t(x) * x;
    CpuPairAligner cpu(x, x);
    ReferenceData rd;
    cpu.prepare_reference(ref.data(), rd);
    const RingInputs in(x, ref, raw);
    const int n = in.n;
    for (bool precomputed : {false, true}) {
      for (SubpixelMethod sub : {SubpixelMethod::None, SubpixelMethod::Parabolic, SubpixelMethod::Centroid3}) {
        auto d_poses = upload(std::vector<Pose2>(3));
        fa::rotation_step(precomputed ? nullptr : in.d_raw.data(), precomputed ? in.d_samples.data() : nullptr,
                          in.rings.data(), in.g, in.d_sin.data(), in.d_cos.data(), in.tw.data(), sub, d_poses.data(), 3,
                          nullptr);
        const auto got = download(d_poses);
        for (int t = 0; t < 3; ++t) {
          const float want = cpu.estimate_rotation(rd, raw.data() + std::size_t(t) * px, sub);
          EXPECT_LE(angle_error(pose_parameters(got[std::size_t(t)]).psi, pose_parameters(pose_rotation(want)).psi),
                    kFusedAngleDeg)
              << "X " << x << " ring length " << n << " t " << t << " " << to_string(sub)
              << (precomputed ? " precomputed samples" : "");
        }
      }
    }
  }
}

// The first rotation step from the pairs' precomputed ring spectra (pair_rings) against the step
// from the samples they came from: the same transforms and ring sum order, so the same poses bit
// for bit (3 trajectories: the third alone in its pair), at every ring length the fused steps use.
TEST(CudaAlignFused, RotationFromPairSpectraEqualsFromSamples) {
  FROST_REQUIRE_GPU();
  for (int x : {32, 64, 128}) {
    const geom::EulerAngles dir{20, 50, 0};
    const RingInputs in(x, reference(x, dir), three_images(x, dir));
    DeviceBuffer<float2> pairs(2 * std::size_t(in.g.rings()) * in.n);
    fa::pair_rings(in.d_samples.data(), in.g, in.tw.data(), pairs.data(), 3, nullptr);
    for (SubpixelMethod sub : {SubpixelMethod::None, SubpixelMethod::Parabolic}) {
      auto from_samples = upload(std::vector<Pose2>(3)), from_spectra = upload(std::vector<Pose2>(3));
      fa::rotation_step(nullptr, in.d_samples.data(), in.rings.data(), in.g, in.d_sin.data(), in.d_cos.data(),
                        in.tw.data(), sub, from_samples.data(), 3, nullptr);
      fa::rotation_step_from_spectra(pairs.data(), in.rings.data(), in.g, in.tw.data(), sub, from_spectra.data(), 3,
                                     nullptr);
      const auto a = download(from_samples), b = download(from_spectra);
      for (int t = 0; t < 3; ++t) {
        const std::string what = "X " + std::to_string(x) + " t " + std::to_string(t) + " " + to_string(sub);
        EXPECT_EQ(std::memcmp(&a[std::size_t(t)], &b[std::size_t(t)], sizeof(Pose2)), 0) << what;
        EXPECT_GT(std::abs(pose_parameters(a[std::size_t(t)]).psi), 1.0) << what << ": the step found no rotation";
      }
    }
  }
}

TEST(CudaAlignFused, WarpedCorrelationMatchesCpu) {
  FROST_REQUIRE_GPU();
  constexpr int x = 64;
  const geom::EulerAngles dir{50, 70, 0};
  const auto ref = reference(x, dir), raw = three_images(x, dir);
  const std::size_t px = std::size_t(x) * x;
  CpuPairAligner cpu(x, x);
  ReferenceData rd;
  cpu.prepare_reference(ref.data(), rd);
  std::vector<Pose2> poses(3);
  for (int t = 0; t < 3; ++t) poses[std::size_t(t)] = pose_compose(pose_translation(1.5f, -0.5f * t), pose_rotation(33.0f * t));
  auto d_ref = upload(ref), d_raw = upload(raw);
  auto d_poses = upload(poses);
  DeviceBuffer<double> d_stats(2);
  DeviceBuffer<float> d_cc(3);
  cuda::align_kernels::statistics(d_ref.data(), x * x, d_stats.data(), 1, nullptr);
  cuda::align_kernels::correlation_warped(d_ref.data(), d_stats.data(), d_raw.data(), d_poses.data(), x, d_cc.data(), 3,
                                          nullptr);
  const auto cc = download(d_cc);
  for (int t = 0; t < 3; ++t) {
    std::vector<float> aligned(px);
    cpu.warp(raw.data() + std::size_t(t) * px, poses[std::size_t(t)], aligned.data());
    EXPECT_NEAR(cc[std::size_t(t)], cpu.correlation(rd, aligned.data()), kFusedCcAbs) << "t " << t;
  }
}

/// The cuFFT pipeline (every step unfused) and the fused one keep CPU parity on a small run.
TEST(CudaAlignFused, CufftPipelineMatchesFusedAndCpu) {
  FROST_REQUIRE_GPU();
  const SmallRun data(64);
  const auto cpu = data.run(*make_cpu_backend());
  cuda::CudaAlignOptions o;
  o.fused = false;
  EXPECT_GE(share_close(data.run(*cuda::make_cuda_align_backend(o)), cpu), 0.98) << "cuFFT pipeline";
  EXPECT_GE(share_close(data.run(*cuda::make_cuda_align_backend({})), cpu), 0.98) << "fused steps";
}

/// X = 48 is not a power of two: the cuFFT shift step with the fused rotation step (which then
/// samples the aligned images itself), the combination 256 px runs; also in batches of 8 (4
/// batches of the 30 images: the raw images' R2C spectra, computed once per chunk in groups of B,
/// end with a partial group) and of 5 (odd batches: no precomputed pair ring spectra).
TEST(CudaAlignFused, CufftShiftWithFusedRotationMatchesCpu) {
  FROST_REQUIRE_GPU();
  ASSERT_FALSE(fa::shift_supported(48));
  const SmallRun data(48);
  const auto cpu = data.run(*make_cpu_backend());
  EXPECT_GE(share_close(data.run(*cuda::make_cuda_align_backend({})), cpu), 0.98);
  for (int batch : {8, 5}) {
    cuda::CudaAlignOptions o;
    o.max_batch = batch;
    EXPECT_GE(share_close(data.run(*cuda::make_cuda_align_backend(o)), cpu), 0.98) << "batches of " << batch;
  }
}

} // namespace
} // namespace frost::align
