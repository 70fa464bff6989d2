// --low-memory (docs/movie_align.md#binning-and-memory): CountFrames keeps integer movies (MRC modes 0, 1, 6,
// 101 and EER) as 8- or 16-bit counts, and frame(t) equals read_all()'s item t bit for bit with
// gain, dark, defects, hot pixels and binning; float movies are not kept as counts.
#include <fstream>

#include "eer_test_files.hpp"
#include "frost/io/eer_reader.hpp"
#include "frost/io/image_io.hpp"
#include "frost/motion/count_frames.hpp"
#include "frost/motion/defects.hpp"
#include "frost/motion/movie_reader.hpp"
#include "frost/test/support.hpp"

namespace frost::motion {
namespace {

constexpr index_t kW = 40, kH = 32, kN = 6;

/// Items of `counts` against read_all() of a second reader with the same options; returns the
/// number of differing values.
index_t differences(const std::string& path, const MovieReadOptions& mo, int expect_bits) {
  MovieReader reference(path, mo);
  const Image<float> want = reference.read_all();
  MovieReader reader(path, mo);
  EXPECT_EQ(CountFrames::bits_for(reader), expect_bits);
  const std::unique_ptr<CountFrames> counts = CountFrames::read(reader);
  if (!counts) {
    ADD_FAILURE() << path << " not kept as counts";
    return want.size();
  }
  EXPECT_EQ(counts->bits(), expect_bits);
  EXPECT_EQ(counts->bytes(), static_cast<std::size_t>(reader.frame_count() * reader.raw_width() *
                                                      reader.raw_height() * expect_bits / 8));
  EXPECT_EQ(counts->frame_shape(), reader.frame_shape());
  EXPECT_EQ(count_bad(reader.bad_pixel_mask().cview()), count_bad(reference.bad_pixel_mask().cview()));
  EXPECT_EQ(reader.hot_pixels().count, reference.hot_pixels().count);
  const index_t per = reader.frame_shape().total();
  Image<float> frame(reader.frame_shape());
  index_t differ = 0;
  for (index_t t = 0; t < counts->frame_count(); ++t) {
    counts->frame(t, frame.data());
    for (index_t i = 0; i < per; ++i) differ += frame[i] != want[t * per + i];
  }
  return differ;
}

class CountFramesMrc : public ::testing::TestWithParam<std::pair<io::MrcMode, int>> {};

TEST_P(CountFramesMrc, FramesEqualReadAllWithEveryCorrection) {
  const auto [mode, bits] = GetParam();
  test::TempDir dir;
  Image<float> movie(Shape{kW, kH, 1, kN});
  const auto v = test::random_floats(static_cast<std::size_t>(movie.size()), 31, 0.f, 12.f);
  for (index_t i = 0; i < movie.size(); ++i) movie[i] = std::floor(v[static_cast<std::size_t>(i)]);
  for (index_t t = 0; t < kN; ++t) movie(9, 5, 0, t) = 15; // hot in every frame
  io::MrcWriteOptions wo;
  wo.mode = mode;
  const std::string path = dir.file("movie.mrcs");
  io::write_image(path, movie.cview(), wo);
  Image<float> gain(Shape::image(kW, kH)), dark(Shape::image(kW, kH));
  const auto g = test::random_floats(static_cast<std::size_t>(gain.size()), 32, 0.6f, 1.4f);
  const auto d = test::random_floats(static_cast<std::size_t>(dark.size()), 33, 0.f, 0.7f);
  for (index_t i = 0; i < gain.size(); ++i) {
    gain[i] = g[static_cast<std::size_t>(i)];
    dark[i] = d[static_cast<std::size_t>(i)];
  }
  gain(3, 4) = 0; // a zero-gain pixel becomes a bad pixel
  io::write_image(dir.file("gain.mrc"), gain.cview());
  io::write_image(dir.file("dark.mrc"), dark.cview());
  std::ofstream(dir.file("defects.txt")) << "20 3 2 2\n";

  MovieReadOptions mo;
  EXPECT_EQ(differences(path, mo, bits), 0) << "plain";
  mo.gain = dir.file("gain.mrc");
  mo.dark = dir.file("dark.mrc");
  mo.first_frame = 1;
  EXPECT_EQ(differences(path, mo, bits), 0) << "gain and dark, frames 1..";
  mo.defects = dir.file("defects.txt");
  mo.hot_pixel_sigma = 4;
  mo.seed = 3;
  EXPECT_EQ(differences(path, mo, bits), 0) << "defects and hot pixels";
  mo.bin = 1.5;
  EXPECT_EQ(differences(path, mo, bits), 0) << "binned";
}

INSTANTIATE_TEST_SUITE_P(Modes, CountFramesMrc,
                         ::testing::Values(std::pair{io::MrcMode::Int8, 8}, std::pair{io::MrcMode::Int16, 16},
                                           std::pair{io::MrcMode::UInt16, 16}, std::pair{io::MrcMode::UInt4, 8}));

TEST(CountFrames, FloatMoviesAreNotKeptAsCounts) {
  test::TempDir dir;
  Image<float> movie(Shape{kW, kH, 1, 3});
  for (index_t i = 0; i < movie.size(); ++i) movie[i] = 0.5f * static_cast<float>(i % 7);
  const std::string path = dir.file("float.mrcs");
  io::write_image(path, movie.cview());
  MovieReader reader(path, {});
  EXPECT_EQ(CountFrames::bits_for(reader), 0);
  EXPECT_EQ(CountFrames::read(reader), nullptr);
}

TEST(CountFrames, EerFractionsEqualReadAll) {
  if (!io::eer_supported()) GTEST_SKIP() << "frost was built without libtiff (EER support)";
  test::TempDir dir;
  const std::string path = dir.file("movie.eer");
  std::vector<std::vector<unsigned char>> streams;
  for (const auto& f : test::three_test_frames()) streams.push_back(test::encode_eer_frame(f, 64 * 40, {7, 4, false}));
  streams.push_back(streams[0]);
  std::string why;
  if (!test::write_eer_tiff(path, streams, 64, 40, 65001, true, &why)) GTEST_SKIP() << why;
  MovieReadOptions mo;
  mo.eer_upsampling = 2;
  mo.eer_frames_per_fraction = 2;
  EXPECT_EQ(differences(path, mo, 16), 0);
}

} // namespace
} // namespace frost::motion
