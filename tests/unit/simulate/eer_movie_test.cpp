// A count movie as EER raw frames (docs/simulate.md#eer-movies): frost's EER reader renders the
// fractions back to the counts exactly, the raw frames hold at most one electron per pixel, the
// file does not depend on the thread count, and counts EER cannot carry are refused.
#include <random>

#include "frost/core/error.hpp"
#include "frost/core/threads.hpp"
#include "frost/io/eer_reader.hpp"
#include "frost/io/eer_writer.hpp"
#include "frost/simulate/eer_movie.hpp"
#include "frost/test/support.hpp"

namespace frost::sim {
namespace {

struct ThreadsReset {
  ~ThreadsReset() { set_num_threads(0); }
};

/// W x H x F Poisson counts with a few pixels at exactly G.
Image<float> poisson_counts(index_t w, index_t h, index_t f, double mean, index_t g) {
  Image<float> c(Shape::image(w, h, f));
  std::mt19937 rng(17);
  std::poisson_distribution<int> draw(mean);
  for (index_t i = 0; i < c.size(); ++i) c.data()[i] = static_cast<float>(std::min<index_t>(draw(rng), g));
  c.data()[0] = static_cast<float>(g);
  c.data()[c.size() - 1] = static_cast<float>(g);
  return c;
}

TEST(EerMovie, FractionsAreTheCountsForAnyThreadCount) {
  if (!io::eer_supported()) GTEST_SKIP() << "built without libtiff: no EER";
  ThreadsReset reset;
  const index_t w = 70, h = 33, f = 3, g = 6;
  const Image<float> counts = poisson_counts(w, h, f, 1.5, g);
  EerSplit split;
  split.group = g;
  split.seed = 5;
  set_num_threads(1);
  const auto one = split_into_eer_frames(counts, split);
  set_num_threads(3);
  const auto three = split_into_eer_frames(counts, split);
  ASSERT_EQ(one.size(), static_cast<std::size_t>(f * g));
  EXPECT_TRUE(one == three) << "the streams depend on the thread count";

  test::TempDir dir;
  const std::string path = dir.file("m.eer");
  io::write_eer_tiff(path, one, w, h);
  io::EerOptions options;
  options.frames_per_fraction = g;
  const io::EerReader reader(path, options);
  ASSERT_EQ(reader.raw_frames(), f * g);
  ASSERT_EQ(reader.info().shape, Shape::image(w, h, f));
  std::vector<float> fraction(static_cast<std::size_t>(w * h)), raw(fraction.size());
  double electrons = 0;
  for (index_t t = 0; t < f; ++t) {
    reader.read(t, fraction.data());
    for (index_t i = 0; i < w * h; ++i) ASSERT_EQ(fraction[i], counts.data()[t * w * h + i]) << "frame " << t << " pixel " << i;
    for (index_t r = t * g; r < (t + 1) * g; ++r) {
      std::fill(raw.begin(), raw.end(), 0.0f);
      ASSERT_TRUE(reader.add_raw_frame(r, raw.data()));
      for (float v : raw) {
        ASSERT_LE(v, 1.0f) << "raw frame " << r << " holds two electrons on a pixel";
        electrons += v;
      }
    }
  }
  EXPECT_EQ(reader.corrupt_frames_seen(), 0);
  std::printf("%d raw frames, %.0f electrons, every fraction equal to its counts\n", static_cast<int>(f * g), electrons);
}

TEST(EerMovie, CountsEerCannotCarryAreRefused) {
  Image<float> counts(Shape::image(8, 8, 1));
  counts.data()[10] = 4.0f;
  EerSplit split;
  split.group = 3; // 4 electrons cannot go to 3 raw frames
  EXPECT_THROW(split_into_eer_frames(counts, split), Error);
  counts.data()[10] = 1.5f; // not a whole count
  split.group = 8;
  EXPECT_THROW(split_into_eer_frames(counts, split), Error);
  counts.data()[10] = 2.0f;
  EXPECT_EQ(split_into_eer_frames(counts, split).size(), 8u);
}

} // namespace
} // namespace frost::sim
