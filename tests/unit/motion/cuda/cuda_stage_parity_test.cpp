// Stage parity of the CUDA movie backend (docs/movie_align.md#cpu-and-gpu-equivalence): the upload,
// the filtered spectra, the pair measurements and the patch measurements of frost::cuda::CudaMovie
// against the host implementations of the same interfaces, on non-trivial data (random frames;
// simulated T1 and T3 movies). Bounds: spectra relative L2 <= 1e-5 (cuFFT vs FFTW in float: ~1e-7
// measured on similar sizes elsewhere); pair peaks: >= 99 % identical integer maxima and sub-pixel
// displacements within 0.01 px where the integer maxima agree. Every test prints its errors.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>
#include <random>

#include "frost/cuda/motion.hpp"
#include "frost/motion/frame_spectra.hpp"
#include "frost/motion/global_alignment.hpp"
#include "frost/motion/local_alignment.hpp"
#include "frost/test/support.hpp"
#include "local_movie_cases.hpp"
#include "movie_cases.hpp"
#include "parity_metrics.hpp"

namespace frost::motion {
namespace {

Image<float> random_frames(index_t nx, index_t ny, index_t n, std::uint32_t seed) {
  Image<float> img(Shape::image(nx, ny, n));
  std::mt19937 rng(seed);
  std::normal_distribution<float> g(1.0f, 0.5f);
  for (index_t i = 0; i < img.size(); ++i) img[i] = g(rng);
  return img;
}

struct PairComparison {
  int pairs = 0, integer_differs = 0, edge_differs = 0;
  double max_subpixel_diff = 0; ///< over pairs with the same integer maximum [processing px]
};

PairComparison compare(const std::vector<PairMeasurement>& gpu, const std::vector<PairMeasurement>& cpu) {
  PairComparison c;
  c.pairs = static_cast<int>(cpu.size());
  for (std::size_t k = 0; k < cpu.size(); ++k) {
    EXPECT_EQ(gpu[k].pair, cpu[k].pair);
    if (gpu[k].peak.ix != cpu[k].peak.ix || gpu[k].peak.iy != cpu[k].peak.iy) {
      ++c.integer_differs;
      continue;
    }
    c.edge_differs += gpu[k].peak.edge != cpu[k].peak.edge ? 1 : 0;
    c.max_subpixel_diff = std::max({c.max_subpixel_diff, std::abs(gpu[k].displacement.x - cpu[k].displacement.x),
                                    std::abs(gpu[k].displacement.y - cpu[k].displacement.y)});
  }
  return c;
}

void expect_pair_parity(const PairComparison& c, const char* label) {
  std::printf("%s: %d pairs, %d integer maxima differ, %d edge flags differ, max sub-pixel diff %.2e px\n", label,
              c.pairs, c.integer_differs, c.edge_differs, c.max_subpixel_diff);
  EXPECT_LE(c.integer_differs, c.pairs / 100) << label;
  EXPECT_LE(c.max_subpixel_diff, 0.01) << label;
}

TEST(CudaMotionParity, UploadIsExact) {
  FROST_REQUIRE_GPU();
  const Image<float> frames = random_frames(257, 130, 7, 1);
  cuda::CudaMotionOptions o;
  o.upload_group = 2; // several groups: both slot sets and the wait on the second are used
  cuda::CudaMovie movie(stack_frames(frames.cview(), "test"), 0, o);
  const Image<float> back = movie.download_frames();
  ASSERT_EQ(back.shape(), frames.shape());
  EXPECT_EQ(std::memcmp(back.data(), frames.data(), static_cast<std::size_t>(frames.size()) * sizeof(float)), 0);
  std::printf("upload %.2f ms, %zu frame bytes, peak %zu bytes, %s\n", movie.stats().upload_ms,
              movie.stats().frame_bytes, movie.stats().peak_used_bytes, movie.describe().c_str());
}

TEST(CudaMotionParity, SpectraMatchFiltered) {
  FROST_REQUIRE_GPU();
  // Whole frames, and a cropped transform window (copy_windows kernel), both with the low-pass.
  for (const bool crop : {false, true}) {
    const Image<float> frames = random_frames(crop ? 530 : 512, crop ? 470 : 384, 6, 2);
    GlobalSettings s = test_movies::default_settings();
    s.pixel_size = 2.0;
    s.crop_frames = crop;
    const WorkingSizes sizes = working_sizes(frames.shape().x, frames.shape().y, s);
    const Image<float> filter = lowpass_filter(sizes);
    const auto views = stack_frames(frames.cview(), "test");
    const Image<fft::Complex> cpu = filtered_spectra(views, sizes, filter.cview());
    cuda::CudaMotionOptions o;
    o.frame_batch = 4; // two batches, the second partial
    cuda::CudaMovie movie(views, 0, o);
    const Image<fft::Complex> gpu = movie.spectra(sizes, filter.cview());
    ASSERT_EQ(gpu.shape(), cpu.shape());
    const double err = test::relative_l2(gpu.cview(), cpu.cview());
    std::printf("spectra %s: %s, relative L2 %.3e\n", crop ? "cropped window" : "whole frame",
                to_string(sizes).c_str(), err);
    EXPECT_LE(err, 1e-5);
    // Zeroed axes are exactly zero on both.
    for (index_t t = 0; t < gpu.shape().n; ++t)
      for (index_t x = 0; x < gpu.shape().x; ++x) EXPECT_EQ(gpu(x, 0, 0, t), fft::Complex(0.f, 0.f));
  }
}

TEST(CudaMotionParity, PairMeasurementsMatchOnT1) {
  FROST_REQUIRE_GPU();
  const test_movies::Movie m = test_movies::movie(sim::TrajectoryKind::T1, 1.0, 0.1, 11);
  const GlobalSettings s = test_movies::default_settings();
  const auto views = stack_frames(m.frames, "test");
  const WorkingSizes sizes = working_sizes(m.frames.shape.x, m.frames.shape.y, s);
  const Image<float> filter = lowpass_filter(sizes);
  const std::vector<FramePair> pairs = frame_pairs(static_cast<int>(views.size()), 0);
  for (const SubpixelMethod method : {SubpixelMethod::Gauss3, SubpixelMethod::Parabolic, SubpixelMethod::Centroid3}) {
    GlobalSettings sm = s;
    sm.subpixel = method;
    const CorrelationOptions co = correlation_options(sizes, sm);
    HostPairMeasurer host(views);
    const auto cpu = host.measure_pairs(sizes, filter.cview(), pairs, co);
    cuda::CudaMotionOptions o;
    o.pair_batch = 37; // several batches, the last partial: results must not depend on it
    cuda::CudaMovie movie(views, 0, o);
    const auto gpu = movie.measure_pairs(sizes, filter.cview(), pairs, co);
    ASSERT_EQ(gpu.size(), cpu.size());
    expect_pair_parity(compare(gpu, cpu), ("T1 dose 1 pairs, " + to_string(method)).c_str());
  }
}

TEST(CudaMotionParity, PeaksOnNoiseWithSmallRadius) {
  FROST_REQUIRE_GPU();
  // Uncorrelated noise: maxima anywhere in the disc, many on its edge (edge flags, tie rules).
  const Image<float> frames = random_frames(256, 256, 8, 3);
  GlobalSettings s = test_movies::default_settings();
  s.max_shift = 20;
  const auto views = stack_frames(frames.cview(), "test");
  const WorkingSizes sizes = working_sizes(256, 256, s);
  const Image<float> filter = lowpass_filter(sizes);
  const auto pairs = frame_pairs(8, 0);
  HostPairMeasurer host(views);
  const auto cpu = host.measure_pairs(sizes, filter.cview(), pairs, correlation_options(sizes, s));
  cuda::CudaMovie movie(views, 0);
  const auto gpu = movie.measure_pairs(sizes, filter.cview(), pairs, correlation_options(sizes, s));
  int edges = 0;
  for (const auto& p : cpu) edges += p.peak.edge ? 1 : 0;
  std::printf("noise pairs: %d of %zu CPU maxima on the edge\n", edges, cpu.size());
  // Noise maps have no dominant peak: allow 2 near-ties out of 28, but report them.
  const PairComparison c = compare(gpu, cpu);
  std::printf("noise pairs: %d integer maxima differ, max sub-pixel diff %.2e px\n", c.integer_differs,
              c.max_subpixel_diff);
  EXPECT_LE(c.integer_differs, 2);
  EXPECT_LE(c.max_subpixel_diff, 0.01);
}

TEST(CudaMotionParity, PatchMeasurementsMatchOnT3) {
  FROST_REQUIRE_GPU();
  const local_test::Movie m = local_test::t3_movie(4.0, 4.0, 0.2, 21);
  const auto views = stack_frames(m.frames, "test");
  const GlobalAlignment global = align_global(views, local_test::global_settings());
  const LocalSettings ls = local_test::local_settings();
  const GlobalSettings ps = patch_alignment_settings(ls, global.reference);
  const PatchOffsets offsets = patch_offsets(global.shifts, ls.patches_average);
  const int p = 256;
  const WorkingSizes sizes = patch_working_sizes(p, ps);
  const Image<float> filter = lowpass_filter(sizes);
  // Corners on a 4 x 3 grid, including the frame edge (clamped reads for the shifted frames).
  std::vector<PatchCorner> corners;
  for (int y : {0, 384, 768})
    for (int x : {0, 256, 512, 768}) corners.push_back({x, y});
  const auto pairs = frame_pairs(static_cast<int>(views.size()), 0);
  HostPatchMeasurer host(views);
  const auto cpu = host.measure_patches(offsets, corners, p, sizes, filter.cview(), pairs, correlation_options(sizes, ps));
  cuda::CudaMotionOptions o;
  o.patch_batch = 5; // three batches, the last partial
  cuda::CudaMovie movie(views, 0, o);
  const auto gpu = movie.measure_patches(offsets, corners, p, sizes, filter.cview(), pairs, correlation_options(sizes, ps));
  ASSERT_EQ(gpu.size(), cpu.size());
  PairComparison all;
  for (std::size_t k = 0; k < cpu.size(); ++k) {
    const PairComparison c = compare(gpu[k], cpu[k]);
    all.pairs += c.pairs;
    all.integer_differs += c.integer_differs;
    all.edge_differs += c.edge_differs;
    all.max_subpixel_diff = std::max(all.max_subpixel_diff, c.max_subpixel_diff);
  }
  expect_pair_parity(all, "T3 dose 4 patch pairs (12 patches)");
}

} // namespace
} // namespace frost::motion
