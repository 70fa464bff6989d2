// The sums of docs/movie_align.md#sums: plain, unaligned, halves, aligned stack; frame order and
// range checks.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <vector>

#include "frost/core/error.hpp"
#include "frost/motion/frame_accumulator.hpp"
#include "frost/test/support.hpp"

namespace frost::motion {
namespace {

constexpr index_t kNx = 48, kNy = 40;

std::vector<Image<float>> random_frames(int count, std::uint32_t seed) {
  std::vector<Image<float>> frames;
  for (int i = 0; i < count; ++i)
    frames.push_back(test::random_image<float>(Shape::image(kNx, kNy), seed + static_cast<std::uint32_t>(i)));
  return frames;
}

/// Σ of frames[i] over the i selected by `use`, in double.
std::vector<double> reference_sum(const std::vector<Image<float>>& frames, int first, bool (*use)(int)) {
  std::vector<double> s(static_cast<std::size_t>(kNx * kNy), 0.0);
  for (std::size_t i = 0; i < frames.size(); ++i)
    if (use(first + static_cast<int>(i)))
      for (index_t p = 0; p < kNx * kNy; ++p) s[static_cast<std::size_t>(p)] += frames[i][p];
  return s;
}

double max_abs_diff(const Image<float>& a, const std::vector<double>& b, double scale = 1.0) {
  double worst = 0;
  for (index_t p = 0; p < a.size(); ++p) worst = std::max(worst, std::abs(a[p] - b[static_cast<std::size_t>(p)] * scale));
  return worst;
}

// Frames 3..9 (absolute indices; 7 frames: even 4, 6, 8 and odd 3, 5, 7, 9).
TEST(FrameAccumulator, HalvesAddToTheFullSum) {
  const int first = 3, count = 7;
  const auto frames = random_frames(count, 30);
  SumOptions options;
  options.halves = true;
  FrameAccumulator acc(kNx, kNy, first, count, options);
  for (int i = 0; i < count; ++i) acc.add_aligned(first + i, frames[static_cast<std::size_t>(i)].cview());
  const FrameSums s = acc.finish();
  const auto all = reference_sum(frames, first, [](int) { return true; });
  const auto even = reference_sum(frames, first, [](int t) { return t % 2 == 0; });
  const auto odd = reference_sum(frames, first, [](int t) { return t % 2 != 0; });
  double halves_vs_full = 0;
  for (index_t p = 0; p < s.aligned.size(); ++p)
    halves_vs_full = std::max(halves_vs_full, static_cast<double>(std::abs(s.even[p] + s.odd[p] - s.aligned[p])));
  const double e_full = max_abs_diff(s.aligned, all), e_even = max_abs_diff(s.even, even), e_odd = max_abs_diff(s.odd, odd);
  std::printf("[ measured ] |even + odd - full| max %.2e; vs double sums: full %.2e, even %.2e, odd %.2e\n",
              halves_vs_full, e_full, e_even, e_odd);
  EXPECT_EQ(halves_vs_full, 0.0);
  EXPECT_LT(e_full, 1e-5);
  EXPECT_LT(e_even, 1e-5);
  EXPECT_LT(e_odd, 1e-5);
  EXPECT_EQ(s.unaligned.size(), 0);
  EXPECT_EQ(s.dose_weighted.size(), 0);
}

TEST(FrameAccumulator, MeanNormalisationStackAndUnalignedSum) {
  const int first = 0, count = 5;
  const auto aligned = random_frames(count, 50), raw = random_frames(count, 70);
  SumOptions options;
  options.halves = true;
  options.unaligned_sum = true;
  options.aligned_frames = true;
  options.normalization = parse_sum_normalization("mean");
  FrameAccumulator acc(kNx, kNy, first, count, options);
  EXPECT_TRUE(acc.wants_unaligned());
  for (int i = 0; i < count; ++i) {
    acc.add_aligned(i, aligned[static_cast<std::size_t>(i)].cview());
    acc.add_unaligned(i, raw[static_cast<std::size_t>(i)].cview());
  }
  const FrameSums s = acc.finish();
  const double e_mean = max_abs_diff(s.aligned, reference_sum(aligned, first, [](int) { return true; }), 1.0 / count);
  const double e_even = max_abs_diff(s.even, reference_sum(aligned, first, [](int t) { return t % 2 == 0; }), 1.0 / 3);
  const double e_odd = max_abs_diff(s.odd, reference_sum(aligned, first, [](int t) { return t % 2 != 0; }), 1.0 / 2);
  const double e_raw = max_abs_diff(s.unaligned, reference_sum(raw, first, [](int) { return true; }), 1.0 / count);
  std::printf("[ measured ] mean errors: aligned %.2e, even %.2e, odd %.2e, unaligned %.2e\n", e_mean, e_even, e_odd, e_raw);
  EXPECT_LT(e_mean, 1e-6);
  EXPECT_LT(e_even, 1e-6);
  EXPECT_LT(e_odd, 1e-6);
  EXPECT_LT(e_raw, 1e-6);
  ASSERT_EQ(s.aligned_frames.shape(), Shape::image(kNx, kNy, count));
  for (int i = 0; i < count; ++i)
    EXPECT_EQ(std::memcmp(s.aligned_frames.data() + i * kNx * kNy, aligned[static_cast<std::size_t>(i)].data(),
                          sizeof(float) * static_cast<std::size_t>(kNx * kNy)),
              0)
        << "stack item " << i;
  EXPECT_EQ(parse_sum_normalization("sum"), SumNormalization::Sum);
  EXPECT_THROW(parse_sum_normalization("average"), Error);
}

TEST(FrameAccumulator, RejectsOutOfOrderMissingAndForeignFrames) {
  const auto frames = random_frames(3, 90);
  SumOptions options;
  {
    FrameAccumulator acc(kNx, kNy, 10, 3, options);
    EXPECT_THROW(acc.add_aligned(9, frames[0].cview()), Error);   // before the range
    EXPECT_THROW(acc.add_aligned(13, frames[0].cview()), Error);  // after the range
    acc.add_aligned(11, frames[0].cview());
    EXPECT_THROW(acc.add_aligned(10, frames[1].cview()), Error);  // not increasing
    EXPECT_THROW(acc.add_aligned(11, frames[1].cview()), Error);  // twice
    const Image<float> wrong(Shape::image(kNx, kNy + 1));
    EXPECT_THROW(acc.add_aligned(12, wrong.cview()), Error);
    EXPECT_THROW(acc.finish(), Error);  // frames 10 and 12 missing
  }
  {
    FrameAccumulator acc(kNx, kNy, 0, 1, options);
    acc.add_aligned(0, frames[0].cview());
    const FrameSums s = acc.finish();
    EXPECT_EQ(std::memcmp(s.aligned.data(), frames[0].data(), sizeof(float) * static_cast<std::size_t>(kNx * kNy)), 0);
    EXPECT_THROW(acc.finish(), Error);
    EXPECT_THROW(acc.add_aligned(0, frames[0].cview()), Error);
  }
  {
    options.unaligned_sum = true;
    FrameAccumulator acc(kNx, kNy, 0, 2, options);
    acc.add_aligned(0, frames[0].cview());
    acc.add_aligned(1, frames[1].cview());
    acc.add_unaligned(0, frames[0].cview());
    EXPECT_THROW(acc.finish(), Error);  // unaligned frame 1 missing
  }
}

} // namespace
} // namespace frost::motion
