// The CUDA aligner's kernels against the CPU estimator (test 21 of
// docs/align_significant.md#gpu-parity-and-benchmark, per kernel), the memory plan
// (docs/align_significant.md#memory-plan, checked everywhere) and a missing device. GPU cases skip
// without a GPU. The backend against the CPU backend end to end (the recovery fixture, small
// batches and reference blocks, mirrors and --max-shift) is SignificantPipeline
// (pipeline_test.cpp), through make_alignment_backend.
//
// Bounds per kernel on random data (same inputs on both sides): warp and polar resampling max
// |GPU − CPU| ≤ 1e-5 · max |CPU| (same FROST_HD code, no FMA contraction: rounding of sin/cos
// only); shift correlation map (cuFFT vs FFTW) relative L2 ≤ 1e-5; shift estimate within 1e-3 px
// and rotation estimate within 1e-3 deg of CpuPairAligner; CC within 1e-6.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "frost/alignment/analytic_phantom.hpp"
#include "frost/alignment/backend.hpp"
#include "frost/alignment/pair_aligner.hpp"
#include "frost/core/error.hpp"
#include "frost/cuda/alignment.hpp"
#include "frost/cuda/alignment_kernels.hpp"
#include "frost/cuda/device_buffer.hpp"
#include "frost/cuda/fft.hpp"
#include "frost/fft/planner.hpp"
#include "frost/test/support.hpp"
#include "cuda_test_helpers.hpp"

namespace frost::align {
namespace {

namespace ck = cuda::align_kernels;
using cuda::DeviceBuffer;
using namespace test_helpers;

constexpr double kKernelRel = 1e-5;   // warp, polar: max abs error / max abs value
constexpr double kMapRel = 1e-5;      // shift correlation map, relative L2
constexpr double kShiftPx = 1e-3;     // one shift step, GPU vs CPU
constexpr double kAngleDeg = 1e-3;    // one rotation step, GPU vs CPU
constexpr double kCcAbs = 1e-6;       // CC kernel vs CPU on the same image

// ---------------------------------------------------------------- memory plan (no GPU needed)

TEST(CudaAlignMemoryPlan, Table22CaseKeepsImagesResident) {
  const cuda::CudaAlignOptions o;
  const std::size_t free_b = std::size_t(80) << 30;
  const auto p = cuda::plan_alignment_memory(256, 1692, 2000, 1, free_b, 0.8, std::size_t(64) << 20, o);
  EXPECT_EQ(p.batch, std::min<std::size_t>(2000, std::size_t(o.max_batch)));
  EXPECT_EQ(p.image_chunk, 2000u);
  EXPECT_EQ(p.reference_block, 1024u);
  EXPECT_LE(double(p.bytes), 0.8 * double(free_b));
}

TEST(CudaAlignMemoryPlan, SmallDeviceChunksImages) {
  const cuda::CudaAlignOptions o;
  const std::size_t free_b = std::size_t(600) << 20;
  const auto p = cuda::plan_alignment_memory(256, 1692, 100000, 2, free_b, 1.0, std::size_t(16) << 20, o);
  EXPECT_GE(p.batch, 1u);
  EXPECT_LT(p.image_chunk, 100000u);
  EXPECT_GE(p.image_chunk, p.batch);
  EXPECT_GE(p.reference_block, 1u);
  // Within the budget, up to the rounding of the reference block to a multiple of B.
  EXPECT_LE(p.bytes + (std::size_t(256) << 20) + (std::size_t(16) << 20),
            free_b + p.batch * cuda::align_reference_bytes(256));
}

TEST(CudaAlignMemoryPlan, FusedStepsNeedNoReferenceGroupsOfB) {
  // 340 MiB free (the GPU memory-pressure app test): the fused steps prepare references one by
  // one, so the block is not rounded up to a multiple of B (this threw when it was).
  const cuda::CudaAlignOptions o;
  const std::size_t free_b = std::size_t(340) << 20;
  const auto p = cuda::plan_alignment_memory(64, 183, 200, 1, free_b, 0.8, 0, o);
  EXPECT_GE(p.reference_block, 1u);
  EXPECT_LE(p.bytes, std::size_t(0.8 * double(free_b)) - (std::size_t(256) << 20));
}

TEST(CudaAlignMemoryPlan, TooLittleMemoryIsADeviceError) {
  try {
    cuda::plan_alignment_memory(256, 10, 10, 1, std::size_t(200) << 20, 1.0, 0, {});
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::Device);
  }
}

// ---------------------------------------------------------------- kernels vs CPU

TEST(CudaAlignKernels, WarpMatchesCpu) {
  FROST_REQUIRE_GPU();
  constexpr int x = 64, n = 8;
  CpuPairAligner cpu(x, x);
  std::vector<float> src, want;
  std::vector<Pose2> poses;
  std::mt19937 rng(5);
  std::uniform_real_distribution<float> ang(0, 360), sh(-6, 6);
  for (int t = 0; t < n; ++t) {
    const auto img = random_image(x, 100 + t);
    src.insert(src.end(), img.begin(), img.end());
    const Pose2 p = pose_compose(pose_translation(sh(rng), sh(rng)), pose_rotation(ang(rng)));
    poses.push_back(p);
    std::vector<float> w(img.size());
    cpu.warp(img.data(), p, w.data());
    want.insert(want.end(), w.begin(), w.end());
  }
  auto d_src = upload(src);
  auto d_poses = upload(poses);
  DeviceBuffer<float> d_dst(src.size());
  ck::warp(d_src.data(), d_poses.data(), d_dst.data(), x, n, nullptr);
  EXPECT_LE(max_rel(download(d_dst), want), kKernelRel);
}

TEST(CudaAlignKernels, PolarMatchesCpu) {
  FROST_REQUIRE_GPU();
  for (int x : {32, 64, 128}) {
    const PolarGrid g = make_polar_grid(x);
    constexpr int n = 3;
    std::vector<float> src, want, sv(std::size_t(g.samples)), cv(std::size_t(g.samples));
    for (int k = 0; k < g.samples; ++k) {
      sv[std::size_t(k)] = float(std::sin(2.0 * M_PI * k / g.samples));
      cv[std::size_t(k)] = float(std::cos(2.0 * M_PI * k / g.samples));
    }
    for (int t = 0; t < n; ++t) {
      const auto img = random_image(x, 200 + t);
      src.insert(src.end(), img.begin(), img.end());
      for (int q = 0; q < g.rings(); ++q)
        for (int k = 0; k < g.samples; ++k)
          want.push_back(polar_sample(img.data(), g, g.first_ring + q, sv[std::size_t(k)], cv[std::size_t(k)]));
    }
    auto d_src = upload(src), d_sin = upload(sv), d_cos = upload(cv);
    DeviceBuffer<float> d_out(want.size());
    ck::polar(d_src.data(), g, g.samples, d_sin.data(), d_cos.data(), d_out.data(), n, nullptr);
    EXPECT_LE(max_rel(download(d_out), want), kKernelRel) << "X = " << x;
  }
}

TEST(CudaAlignKernels, ShiftStepMatchesCpu) {
  FROST_REQUIRE_GPU();
  constexpr int x = 64;
  const auto blobs = phantom_blobs(PhantomKind::Sharp);
  std::vector<float> ref(std::size_t(x) * x), img(ref.size());
  render_projection(blobs, x, geom::EulerAngles{30, 60, 0}, 0, 0, ref.data());
  render_projection(blobs, x, geom::EulerAngles{30, 60, 0}, 3.3, -2.6, img.data());
  add_noise(img.data(), img.size(), 1.0, 7u);

  CpuPairAligner cpu(x, x);
  ReferenceData rd;
  cpu.prepare_reference(ref.data(), rd);
  const std::size_t half = std::size_t(x / 2 + 1) * x;

  // CPU correlation map with FFTW, exactly as the estimator computes it.
  auto cpu_planner = fft::shared_planner(fft::Backend::Cpu);
  std::vector<fft::Complex> spec(half);
  std::vector<float> map(ref.size());
  cpu_planner->plan(fft::FftSpec::r2c(Shape::image(x, x))).execute(img.data(), spec.data());
  for (std::size_t e = 0; e < half; ++e) {
    float qr, qi;
    shift_product(rd.spectrum[e].real(), rd.spectrum[e].imag(), spec[e].real(), spec[e].imag(),
                  int(e % std::size_t(x / 2 + 1)), int(e / std::size_t(x / 2 + 1)), qr, qi);
    spec[e] = {qr, qi};
  }
  cpu_planner->plan(fft::FftSpec::c2r(Shape::image(x, x))).execute(spec.data(), map.data());

  auto gpu_planner = fft::make_planner(fft::Backend::Cuda, 0);
  DeviceBuffer<float2> d_ref_spec(half), d_spec(half);
  auto d_ref = upload(ref), d_img = upload(img);
  DeviceBuffer<float> d_map(ref.size());
  const auto r2c = gpu_planner->plan(fft::FftSpec::r2c(Shape::image(x, x)));
  const auto c2r = gpu_planner->plan(fft::FftSpec::c2r(Shape::image(x, x)));
  r2c.execute(d_ref.data(), d_ref_spec.data());
  r2c.execute(d_img.data(), d_spec.data());
  ck::shift_product(d_ref_spec.data(), d_spec.data(), d_spec.data(), x, 1, nullptr);
  c2r.execute(d_spec.data(), d_map.data());
  const auto gmap = download(d_map);
  EXPECT_LE(test::relative_l2(gmap.data(), map.data(), map.size()), kMapRel);

  for (SubpixelMethod sub : {SubpixelMethod::None, SubpixelMethod::Parabolic, SubpixelMethod::Centroid3}) {
    float dx, dy;
    cpu.estimate_shift(rd, img.data(), x / 4, sub, dx, dy);
    auto d_poses = upload(std::vector<Pose2>(1));
    DeviceBuffer<float2> d_shift(1);
    ck::shift_peak(d_map.data(), x, x / 4, sub, d_poses.data(), d_shift.data(), 1, nullptr);
    const float2 s = download(d_shift)[0];
    EXPECT_NEAR(s.x, dx, kShiftPx) << to_string(sub);
    EXPECT_NEAR(s.y, dy, kShiftPx) << to_string(sub);
    const Pose2 p = download(d_poses)[0];
    EXPECT_NEAR(p.a02, dx, kShiftPx);
    EXPECT_NEAR(p.a12, dy, kShiftPx);
  }
}

TEST(CudaAlignKernels, RotationStepAndCcMatchCpu) {
  FROST_REQUIRE_GPU();
  constexpr int x = 64;
  const PolarGrid g = make_polar_grid(x);
  const auto blobs = phantom_blobs(PhantomKind::Sharp);
  std::vector<float> ref(std::size_t(x) * x), img(ref.size());
  render_projection(blobs, x, geom::EulerAngles{10, 40, 0}, 0, 0, ref.data());
  render_projection(blobs, x, geom::EulerAngles{10, 40, 57.3}, 0, 0, img.data());
  add_noise(img.data(), img.size(), 1.0, 9u);

  CpuPairAligner cpu(x, x);
  ReferenceData rd;
  cpu.prepare_reference(ref.data(), rd);

  std::vector<float> sv(std::size_t(g.samples)), cv(std::size_t(g.samples));
  for (int k = 0; k < g.samples; ++k) {
    sv[std::size_t(k)] = float(std::sin(2.0 * M_PI * k / g.samples));
    cv[std::size_t(k)] = float(std::cos(2.0 * M_PI * k / g.samples));
  }
  // Ring length N = S (the circular correlation itself) and N >= 2S (zero-padded rings, the
  // linear correlation folded by rotation_peak: what the backend runs when S is not fast).
  auto planner = fft::make_planner(fft::Backend::Cuda, 0);
  auto d_ref = upload(ref), d_img = upload(img), d_sin = upload(sv), d_cos = upload(cv);
  for (int n : {g.samples, 2 * g.samples, 2 * g.samples + 10}) {
    const int half = n / 2 + 1;
    const auto ring_r2c = planner->plan(fft::FftSpec::r2c(Shape{n, 1, 1, g.rings()}));
    const auto ring_c2r = planner->plan(fft::FftSpec::c2r(Shape{n, 1, 1, 1}));
    const std::size_t np = std::size_t(g.rings()) * n, nh = std::size_t(g.rings()) * half;
    DeviceBuffer<float> d_polar(np), d_rho(static_cast<std::size_t>(n));
    d_polar.zero_async(nullptr); // the padding
    DeviceBuffer<float2> d_ref_polar(nh), d_spec(nh), d_sum(static_cast<std::size_t>(half));
    ck::polar(d_ref.data(), g, n, d_sin.data(), d_cos.data(), d_polar.data(), 1, nullptr);
    ring_r2c.execute(d_polar.data(), d_ref_polar.data());
    ck::polar(d_img.data(), g, n, d_sin.data(), d_cos.data(), d_polar.data(), 1, nullptr);
    ring_r2c.execute(d_polar.data(), d_spec.data());
    ck::ring_sum(d_ref_polar.data(), d_spec.data(), d_sum.data(), g.rings(), half, 1, nullptr);
    ring_c2r.execute(d_sum.data(), d_rho.data());
    for (SubpixelMethod sub : {SubpixelMethod::None, SubpixelMethod::Parabolic, SubpixelMethod::Centroid3}) {
      const float want = cpu.estimate_rotation(rd, img.data(), sub);
      auto d_poses = upload(std::vector<Pose2>(1));
      DeviceBuffer<float> d_angle(1);
      ck::rotation_peak(d_rho.data(), g.samples, n, sub, d_poses.data(), d_angle.data(), 1, nullptr);
      EXPECT_LE(angle_error(download(d_angle)[0], want), kAngleDeg) << to_string(sub) << ", ring length " << n;
    }
  }

  // CC (and the reference statistics it uses) on the same image.
  DeviceBuffer<double> d_stats(2);
  DeviceBuffer<float> d_cc(1);
  ck::statistics(d_ref.data(), x * x, d_stats.data(), 1, nullptr);
  ck::correlation(d_ref.data(), d_stats.data(), d_img.data(), x * x, d_cc.data(), 1, nullptr);
  const auto stats = download(d_stats);
  EXPECT_NEAR(stats[0], rd.mean, 1e-9 * (1 + std::abs(rd.mean)));
  EXPECT_NEAR(stats[1], rd.stddev, 1e-9 * (1 + rd.stddev));
  EXPECT_NEAR(download(d_cc)[0], cpu.correlation(rd, img.data()), kCcAbs);
}

// ---------------------------------------------------------------- devices

TEST(CudaAlignBackend, MissingDeviceIsADeviceError) {
  cuda::CudaAlignOptions o;
  o.device = 999;
  try {
    cuda::make_cuda_align_backend(o);
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::Device);
  }
}

} // namespace
} // namespace frost::align
