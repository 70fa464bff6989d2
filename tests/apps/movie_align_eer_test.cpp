// EER movies through frost_movie_align (docs/movie_align.md#movie-formats,
// docs/formats.md#eer-fractions-and-upsampling): a synthetic EER file (the test encoder of
// tests/unit/motion/input, 24 raw frames of a drifting pattern, with the acquisition XML) grouped
// by --eer-dose-per-fraction, dose weighted with the dose the XML gives; and grouped by
// --eer-fractions. The RELION motion STAR records the grouping used (rlnEERGrouping; it recorded 0
// when the grouping came from a fraction count) and the dose.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "eer_test_files.hpp"
#include "frost/io/eer_reader.hpp"
#include "frost/metadata/metadata_file.hpp"
#include "frost/test/support.hpp"
#include "movie_align_cli.hpp"

namespace frost {
namespace {

using namespace movie_align_test;

constexpr std::int64_t kSensor = 256;
constexpr int kRawFrames = 24;

/// Raw frames of a smooth random pattern drifting 0.25 px per frame in x: each pixel holds an
/// electron with probability 0.5 · pattern, at a random sub-pixel position.
std::vector<std::vector<unsigned char>> drifting_pattern_streams() {
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> unit(0, 1);
  std::vector<double> cx(12), cy(12);
  for (int k = 0; k < 12; ++k) {
    cx[std::size_t(k)] = 30 + 196 * unit(rng);
    cy[std::size_t(k)] = 30 + 196 * unit(rng);
  }
  std::vector<std::vector<unsigned char>> streams;
  for (int t = 0; t < kRawFrames; ++t) {
    std::vector<test::Electron> electrons;
    for (std::int64_t y = 0; y < kSensor; ++y)
      for (std::int64_t x = 0; x < kSensor; ++x) {
        double p = 0.15;
        for (int k = 0; k < 12; ++k) {
          const double dx = double(x) - cx[std::size_t(k)] - 0.25 * t, dy = double(y) - cy[std::size_t(k)];
          p += 0.8 * std::exp(-(dx * dx + dy * dy) / 50.0);
        }
        if (unit(rng) < 0.5 * std::min(1.0, p))
          electrons.push_back({y * kSensor + x, int(unit(rng) * 4), int(unit(rng) * 4)});
      }
    streams.push_back(test::encode_eer_frame(electrons, kSensor * kSensor, {7, 4, false}));
  }
  return streams;
}

TEST(MovieAlignEer, DosePerFractionFromTheMetadataAndTheGroupingInTheRelionStar) {
  if (!io::eer_supported()) GTEST_SKIP() << "frost was built without libtiff (EER support)";
  test::TempDir dir;
  // 24 raw frames, 12 e/px in total on 1 Å pixels: 0.5 e/Å² per raw frame.
  const std::string xml = "<metadata><item name=\"numberOfFrames\">24</item><item name=\"totalDose\">12</item>"
                          "<item name=\"sensorPixelSize.height\">1e-10</item>"
                          "<item name=\"sensorPixelSize.width\">1e-10</item></metadata>";
  const std::string movie = dir.file("m.eer");
  std::string why;
  ASSERT_TRUE(test::write_eer_tiff(movie, drifting_pattern_streams(), kSensor, kSensor, 65001, false, &why, 7, 2, xml))
      << why;
  const std::string common = "-i " + movie + " --sampling 1 --device cpu --skipLocalAlignment --maxResForCorrelation 12 ";

  // 2 e/Å² per fraction: G = 4, 6 fractions; --dose-weight takes the dose from the XML.
  const std::string log = dir.file("dose.log");
  ASSERT_EQ(align(common + "--eer-dose-per-fraction 2 --dose-weight --oavg " + dir.file("dw.mrc") + " --ostar_motion " +
                      dir.file("dw_motion.star"),
                  log),
            0)
      << read_text(log);
  const std::string text = read_text(log);
  EXPECT_NE(text.find("dose 2 e/A^2 per fraction from the EER metadata"), std::string::npos) << text;
  const meta::MetadataFile dw = meta::MetadataFile::read(dir.file("dw_motion.star"));
  const meta::Block& general = dw.block("general");
  EXPECT_EQ(general.get_int("rlnEERGrouping"), 4);
  EXPECT_EQ(general.get_int("rlnImageSizeZ"), 6);
  EXPECT_DOUBLE_EQ(general.doubles("rlnMicrographDoseRate")[0], 2.0);

  // --eer-fractions 3: G = 8, recorded as such (not 0).
  ASSERT_EQ(align(common + "--eer-fractions 3 --oavg " + dir.file("f.mrc") + " --ostar_motion " + dir.file("f_motion.star")),
            0);
  const meta::MetadataFile f3 = meta::MetadataFile::read(dir.file("f_motion.star"));
  const meta::Block& g3 = f3.block("general");
  EXPECT_EQ(g3.get_int("rlnEERGrouping"), 8);
  EXPECT_DOUBLE_EQ(g3.doubles("rlnMicrographDoseRate")[0], 4.0); // known from the XML, 8 x 0.5

  // Both groupings at once is a usage error; a dose per fraction needs the dose in the XML.
  EXPECT_EQ(align(common + "--eer-group 4 --eer-dose-per-fraction 2 --oavg " + dir.file("x.mrc")), 2);
  const std::string bare = dir.file("bare.eer");
  ASSERT_TRUE(test::write_eer_tiff(bare, drifting_pattern_streams(), kSensor, kSensor, 65001, false, &why)) << why;
  const std::string bare_log = dir.file("bare.log");
  EXPECT_EQ(align("-i " + bare + " --sampling 1 --device cpu --eer-dose-per-fraction 2 --oavg " + dir.file("y.mrc"),
                  bare_log),
            3);
  EXPECT_NE(read_text(bare_log).find("bare.eer"), std::string::npos) << read_text(bare_log);
  // Without any dose, --dose-weight cannot weight an EER movie: a usage error naming the movie.
  const std::string nodose_log = dir.file("nodose.log");
  EXPECT_EQ(align("-i " + bare + " --sampling 1 --device cpu --skipLocalAlignment --eer-fractions 3 --dose-weight --oavg " +
                      dir.file("z.mrc"),
                  nodose_log),
            2);
  EXPECT_NE(read_text(nodose_log).find("does not give its dose"), std::string::npos) << read_text(nodose_log);
}

} // namespace
} // namespace frost
