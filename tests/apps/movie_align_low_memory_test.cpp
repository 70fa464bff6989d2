// --low-memory (movie-alignment.md §4.5) through the program on the CPU: a simulated movie
// stored as 16-bit and as 8-bit counts, with gain, dark, hot pixels, local alignment and dose
// weighting, gives the same micrograph, unaligned sum, aligned frames and RELION STAR bytes as
// the default run, also binned; the log reports the memory saved. A float movie is aligned as
// before, with a note.
#include <gtest/gtest.h>

#include <cstdio>

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
