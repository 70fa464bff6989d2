// DIR/micrographs.star in RELION's corrected_micrographs.star layout (docs/session.md#micrographs-star).
#include <gtest/gtest.h>

#include "frost/metadata/metadata_file.hpp"
#include "frost/session/micrographs_star.hpp"
#include "frost/test/files.hpp"
#include "frost/test/support.hpp"

namespace frost::session {
namespace {

MovieRecord star_record(const std::string& name, std::int64_t order, double total) {
  MovieRecord r;
  r.movie = "Movies/" + name + ".tiff";
  r.order = order;
  r.micrograph = "Micrographs/" + name + ".mrc";
  r.motion_star = "Micrographs/" + name + ".star";
  r.accum_motion_total = total;
  r.accum_motion_early = total / 4;
  r.accum_motion_late = total * 3 / 4;
  return r;
}

TEST(SessionMicrographsStar, RelionLayoutWithDoneMoviesOnly) {
  test::TempDir dir;
  OpticsGroup optics;
  optics.original_pixel_size_A = 0.885;
  optics.micrograph_pixel_size_A = 1.77;
  MovieRecord failed = star_record("bad", 2, 0);
  failed.status = "failed";
  failed.reason = "truncated";
  const std::vector<MovieRecord> records = {star_record("a", 1, 14.5), failed, star_record("c", 3, 8.0)};
  const std::string path = dir.file("micrographs.star");
  write_micrographs_star(path, records, optics);
  EXPECT_EQ(test::listing(dir.path()), std::vector<std::string>{"micrographs.star"}) << "no temporary left";

  const meta::MetadataFile back = meta::MetadataFile::read(path);
  EXPECT_EQ(back.dialect(), meta::Dialect::Relion31);
  const meta::Block& o = back.block("optics");
  EXPECT_DOUBLE_EQ(o.get_double("rlnMicrographOriginalPixelSize"), 0.885);
  EXPECT_DOUBLE_EQ(o.get_double("rlnMicrographPixelSize"), 1.77);
  EXPECT_EQ(o.get_int("rlnOpticsGroup"), 1);
  const meta::Block& m = back.block("micrographs");
  ASSERT_EQ(m.rows(), 2u) << "the failed movie is not a micrograph";
  EXPECT_EQ(m.get_string("rlnMicrographName", 1), "Micrographs/c.mrc");
  EXPECT_EQ(m.get_string("rlnMicrographMetadata", 0), "Micrographs/a.star");
  EXPECT_DOUBLE_EQ(m.get_double("rlnAccumMotionTotal", 0), 14.5);
  EXPECT_DOUBLE_EQ(m.get_double("rlnAccumMotionLate", 1), 6.0);
  EXPECT_FALSE(m.has("rlnCtfPowerSpectrum")) << "no power spectra were written";
}

TEST(SessionMicrographsStar, SameLabelsAsRelionsOwnFile) {
  const std::string fixture = test::data_file("em-testdata/corrected_micrographs.star");
  if (fixture.empty()) GTEST_SKIP() << "em-testdata/corrected_micrographs.star not in the shared test data";
  const meta::MetadataFile relion = meta::MetadataFile::read(fixture);
  MovieRecord r = star_record("a", 1, 1.0);
  r.power_spectrum = "Micrographs/a_PS.mrc";
  OpticsGroup optics;
  optics.mtf = "mtf_k2_200kV.star";
  const meta::MetadataFile ours = micrographs_star({r}, optics);
  for (const char* block : {"optics", "micrographs"}) {
    auto theirs = relion.block(block).labels();
    auto mine = ours.block(block).labels();
    std::sort(theirs.begin(), theirs.end());
    std::sort(mine.begin(), mine.end());
    EXPECT_EQ(mine, theirs) << "data_" << block;
  }
}

TEST(SessionMicrographsStar, EmptySessionStillHasTheLayout) {
  const meta::MetadataFile f = micrographs_star({}, OpticsGroup{});
  EXPECT_EQ(f.block("micrographs").rows(), 0u);
  EXPECT_TRUE(f.block("micrographs").has("rlnAccumMotionEarly"));
}

} // namespace
} // namespace frost::session
