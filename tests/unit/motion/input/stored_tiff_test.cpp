// TIFF movies as stored frames (docs/movie_align.md#loading-frames): what a GPU takes instead of
// floats. The stored rows of the selected frames, read in chunks that cut strips and cross frames,
// converted by the host codec and corrected by correct_frame(), equal read_frame() bit for bit;
// movies that need more host work than that have no stored form.
#include <cstring>

#include "frost/io/image_io.hpp"
#include "frost/io/mrc_codec.hpp"
#include "frost/motion/frame_correction.hpp"
#include "frost/motion/movie_reader.hpp"
#include "frost/test/support.hpp"
#include "tiff_test_files.hpp"


namespace frost::motion {
namespace {


TEST(StoredTiffFrames, ChunksOfRowsConvertToTheFramesOfReadFrame) {
#if !FROST_HAVE_TIFF
  GTEST_SKIP() << "frost was built without libtiff";
#else
  test::TempDir dir;
  const index_t w = 21, h = 17;
  const std::string gain = dir.file("gain.mrc"), dark = dir.file("dark.mrc");
  Image<float> g(Shape::image(w, h)), d(Shape::image(w, h));
  const auto gv = test::random_floats(std::size_t(w * h), 5, 0.5f, 1.5f), dv = test::random_floats(std::size_t(w * h), 6, 0.f, 0.5f);
  for (index_t i = 0; i < w * h; ++i) {
    g[i] = gv[std::size_t(i)];
    d[i] = dv[std::size_t(i)];
  }
  io::write_image(gain, g.cview());
  io::write_image(dark, d.cview());
  for (std::uint32_t rows_per_strip : {1u, 5u, 17u}) {
    const std::string movie = dir.file("m" + std::to_string(rows_per_strip) + ".tif");
    ASSERT_TRUE(test::write_counts_tiff(movie, w, h, 6, rows_per_strip, 8));
    for (bool flip : {true, false}) {
      MovieReadOptions mo;
      mo.first_frame = 1;
      mo.last_frame = 4;
      mo.gain = gain;
      mo.dark = dark;
      mo.tiff_flip_y = flip;
      const MovieReader reader(movie, mo);
      const std::optional<StoredFrames> stored = reader.stored_frames();
      ASSERT_TRUE(stored.has_value());
      EXPECT_EQ(stored->mode, 0);
      EXPECT_TRUE(stored->mode0_unsigned);
      EXPECT_EQ(stored->row_bytes, w);
      EXPECT_EQ(stored->frame_bytes, w * h);
      EXPECT_EQ(stored->decode_rows, index_t(rows_per_strip));
      // Chunks of 6 rows: they cut strips and cross from one frame into the next.
      const index_t frames = reader.frame_count(), total_rows = frames * h, chunk = 6;
      std::vector<unsigned char> bytes(static_cast<std::size_t>(total_rows * w));
      for (index_t r0 = 0; r0 < total_rows; r0 += chunk) {
        const index_t rows = std::min(chunk, total_rows - r0);
        reader.read_stored(r0 * w, static_cast<std::size_t>(rows * w), bytes.data() + r0 * w);
      }
      Image<float> want(Shape::image(w, h)), got(Shape::image(w, h));
      for (index_t t = 0; t < frames; ++t) {
        reader.read_frame(t, want.data());
        io::decode_mrc_rows(0, bytes.data() + t * w * h, false, true, w, h, got.data());
        correct_frame(got.data(), w * h, reader.dark().data(), reader.gain().data());
        ASSERT_EQ(std::memcmp(got.data(), want.data(), static_cast<std::size_t>(w * h) * sizeof(float)), 0)
            << "rows per strip " << rows_per_strip << " flip " << flip << " frame " << t;
      }
    }
  }
#endif
}

TEST(StoredTiffFrames, MoviesThatNeedHostWorkHaveNoStoredForm) {
#if !FROST_HAVE_TIFF
  GTEST_SKIP() << "frost was built without libtiff";
#else
  test::TempDir dir;
  const std::string movie = dir.file("m.tif"), wide = dir.file("w.tif");
  ASSERT_TRUE(test::write_counts_tiff(movie, 16, 12, 3, 4, 8));
  ASSERT_TRUE(test::write_counts_tiff(wide, 16, 12, 3, 4, 32)); // 32-bit integers: no MRC mode holds them
  EXPECT_TRUE(MovieReader(movie, {}).stored_frames().has_value());
  EXPECT_FALSE(MovieReader(wide, {}).stored_frames().has_value());
  MovieReadOptions binned;
  binned.bin = 2;
  EXPECT_FALSE(MovieReader(movie, binned).stored_frames().has_value());
  MovieReadOptions hot;
  hot.hot_pixel_sigma = 5;
  EXPECT_FALSE(MovieReader(movie, hot).stored_frames().has_value());
#endif
}

} // namespace
} // namespace frost::motion
