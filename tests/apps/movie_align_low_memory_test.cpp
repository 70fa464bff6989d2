// --low-memory (docs/movie_align.md#binning-and-memory) through the program on the CPU: a simulated movie
// stored as 16-bit and as 8-bit counts, with gain, dark, hot pixels, local alignment and dose
// weighting, gives the same micrograph, unaligned sum, aligned frames and RELION STAR bytes as
// the default run, also binned, and from a 16-bit TIFF movie; the log reports the memory saved.
// A float movie is aligned as before, with a note.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <vector>

#ifdef FROST_TEST_WRITES_TIFF
#include <tiffio.h>
#endif

#include "frost/test/support.hpp"
#include "movie_align_cli.hpp"

namespace frost {
namespace {

using namespace movie_align_test;

class MovieAlignLowMemory : public ::testing::Test {
protected:
  static void SetUpTestSuite() {
    dir_ = new test::TempDir();
    ASSERT_EQ(simulate("--mode movie --size 384 384 --frames 10 --trajectory T3 --dose 4 --contrast 0.2 --seed 7 "
                       "--oroot " + file("t3")),
              0);
    const std::vector<std::pair<index_t, index_t>> hot{{50, 60}, {300, 200}};
    rewrite_movie(file("t3.mrcs"), file("u16.mrcs"), io::MrcMode::UInt16, hot, 30.0f);
    rewrite_movie(file("t3.mrcs"), file("i8.mrcs"), io::MrcMode::Int8, hot, 30.0f);
    // Gain and dark references (float), values that are not counts.
    Image<float> gain(Shape::image(384, 384)), dark(Shape::image(384, 384));
    const auto g = test::random_floats(static_cast<std::size_t>(gain.size()), 41, 0.8f, 1.25f);
    const auto d = test::random_floats(static_cast<std::size_t>(dark.size()), 42, 0.0f, 0.5f);
    for (index_t i = 0; i < gain.size(); ++i) {
      gain[i] = g[static_cast<std::size_t>(i)];
      dark[i] = d[static_cast<std::size_t>(i)];
    }
    io::write_image(file("gain.mrc"), gain.cview());
    io::write_image(file("dark.mrc"), dark.cview());
  }
  static void TearDownTestSuite() {
    delete dir_;
    dir_ = nullptr;
  }
  static std::string file(const std::string& name) { return dir_->file(name); }

  /// Runs with and without --low-memory; expects every output byte-identical. Returns the
  /// --low-memory run's log.
  static std::string expect_same_outputs(const std::string& movie, const std::string& extra) {
    const std::string args = "-i " + file(movie) + " --gain " + file("gain.mrc") + " --dark " + file("dark.mrc") +
                             " --device cpu --hot-pixel-sigma 6 --patches 2 2 --minLocalRes 192 --controlPoints 4 4 4 "
                             "--dose-weight --dose-per-frame 1.5 " + extra;
    auto outputs = [&](const std::string& tag) {
      return " --oavg " + file(tag + ".mrc") + " --oavgInitial " + file(tag + "_initial.mrc") + " --oaligned " +
             file(tag + "_frames.mrcs") + " -o " + file(tag + ".star") + " --ostar_motion " + file(tag + "_motion.star");
    };
    EXPECT_EQ(align(args + outputs("default")), 0);
    EXPECT_EQ(align(args + " --low-memory" + outputs("low"), file("low.log")), 0);
    for (const char* suffix : {".mrc", "_initial.mrc", "_frames.mrcs", "_motion.star"}) {
      const std::string a = read_text(file(std::string("default") + suffix));
      EXPECT_GT(a.size(), 1024u) << suffix;
      EXPECT_TRUE(a == read_text(file(std::string("low") + suffix))) << movie << " " << extra << ": " << suffix
                                                                       << " differs with --low-memory";
    }
    return read_text(file("low.log"));
  }
  static test::TempDir* dir_;
};
test::TempDir* MovieAlignLowMemory::dir_ = nullptr;

TEST_F(MovieAlignLowMemory, SixteenBitCountsGiveTheSameBytes) {
  const std::string log = expect_same_outputs("u16.mrcs", "");
  EXPECT_NE(log.find("2 hot pixel(s)"), std::string::npos) << log;
  const std::size_t at = log.find("--low-memory: frames held as 16-bit counts, 2.8 MiB instead of 5.6 MiB");
  EXPECT_NE(at, std::string::npos) << log;
  if (at != std::string::npos) std::printf("%s", log.substr(at, log.find('\n', at) - at + 1).c_str());
}

TEST_F(MovieAlignLowMemory, EightBitCountsBinnedGiveTheSameBytes) {
  const std::string log = expect_same_outputs("i8.mrcs", "--bin 1.5");
  EXPECT_NE(log.find("--low-memory: frames held as 8-bit counts"), std::string::npos) << log;
  EXPECT_NE(log.find("(--low-memory: 8-bit counts)"), std::string::npos) << log;
}

#ifdef FROST_TEST_WRITES_TIFF
/// The 16-bit MRC movie as an uncompressed 16-bit unsigned TIFF, one page per frame, rows in
/// stored order.
void write_u16_tiff(const std::string& from, const std::string& to) {
  const io::LoadedImage movie = io::read_stack(from);
  const Shape s = movie.image.shape();
  TIFF* tif = TIFFOpen(to.c_str(), "w");
  ASSERT_NE(tif, nullptr) << to;
  std::vector<std::uint16_t> row(static_cast<std::size_t>(s.x));
  for (index_t t = 0; t < s.n; ++t) {
    TIFFSetField(tif, TIFFTAG_IMAGEWIDTH, static_cast<std::uint32_t>(s.x));
    TIFFSetField(tif, TIFFTAG_IMAGELENGTH, static_cast<std::uint32_t>(s.y));
    TIFFSetField(tif, TIFFTAG_BITSPERSAMPLE, 16);
    TIFFSetField(tif, TIFFTAG_SAMPLESPERPIXEL, 1);
    TIFFSetField(tif, TIFFTAG_SAMPLEFORMAT, SAMPLEFORMAT_UINT);
    TIFFSetField(tif, TIFFTAG_PHOTOMETRIC, PHOTOMETRIC_MINISBLACK);
    TIFFSetField(tif, TIFFTAG_PLANARCONFIG, PLANARCONFIG_CONTIG);
    TIFFSetField(tif, TIFFTAG_COMPRESSION, COMPRESSION_NONE);
    TIFFSetField(tif, TIFFTAG_ROWSPERSTRIP, static_cast<std::uint32_t>(s.y));
    for (index_t y = 0; y < s.y; ++y) {
      for (index_t x = 0; x < s.x; ++x) row[static_cast<std::size_t>(x)] = static_cast<std::uint16_t>(movie.image(x, y, 0, t));
      ASSERT_EQ(TIFFWriteScanline(tif, row.data(), static_cast<std::uint32_t>(y), 0), 1);
    }
    ASSERT_EQ(TIFFWriteDirectory(tif), 1);
  }
  TIFFClose(tif);
}
#endif

TEST_F(MovieAlignLowMemory, SixteenBitTiffCountsGiveTheSameBytes) {
#ifndef FROST_TEST_WRITES_TIFF
  GTEST_SKIP() << "built without libtiff (FROST_USE_TIFF=OFF): no TIFF movie can be written or read";
#else
  write_u16_tiff(file("u16.mrcs"), file("u16.tif"));
  const std::string log = expect_same_outputs("u16.tif", "--sampling 1"); // TIFFs record no pixel size
  EXPECT_NE(log.find("--low-memory: frames held as 16-bit counts"), std::string::npos) << log;
#endif
}

TEST_F(MovieAlignLowMemory, FloatMoviesAreAlignedAsBeforeWithANote) {
  const std::string args = "-i " + file("t3.mrcs") + " --device cpu --skipLocalAlignment";
  ASSERT_EQ(align(args + " --oavg " + file("f0.mrc") + " -o " + file("f0.star")), 0);
  ASSERT_EQ(align(args + " --low-memory --oavg " + file("f1.mrc") + " -o " + file("f1.star"), file("f1.log")), 0);
  EXPECT_TRUE(read_text(file("f0.mrc")) == read_text(file("f1.mrc")));
  const std::string log = read_text(file("f1.log"));
  EXPECT_NE(log.find("is not stored as integer counts; frames are held as float32"), std::string::npos) << log;
}

} // namespace
} // namespace frost
