// Curation: thresholds on the records, and the STAR and XMD lists of what passed
// (docs/session.md#curation).
#include <gtest/gtest.h>

#include "frost/metadata/metadata_file.hpp"
#include "frost/session/selection.hpp"
#include "frost/test/files.hpp"
#include "frost/test/support.hpp"

namespace frost::session {
namespace {

MovieRecord curated_record(const std::string& name, double motion, std::optional<double> resolution) {
  MovieRecord r;
  r.movie = "Movies/" + name + ".tiff";
  r.micrograph = "Micrographs/" + name + ".mrc";
  r.motion_star = "Micrographs/" + name + ".star";
  r.accum_motion_total = motion;
  r.accum_motion_early = motion / 5;
  r.accum_motion_late = motion * 4 / 5;
  r.frc_resolution_A = resolution;
  return r;
}

std::vector<MovieRecord> curation_set() {
  std::vector<MovieRecord> v = {curated_record("good", 10, 3.5), curated_record("drifty", 40, 3.6),
                                curated_record("blurry", 12, 7.0), curated_record("unknown", 11, std::nullopt),
                                curated_record("bad", 5, 3.0)};
  v[4].status = "failed";
  v[4].reason = "corrupt";
  return v;
}

TEST(SessionSelection, ThresholdsKeepOnlyWhatPasses) {
  SelectionCriteria c;
  c.max_total_motion_A = 20;
  c.min_resolution_A = 4.0;
  const Selection s = select(curation_set(), c);
  ASSERT_EQ(s.kept.size(), 1u);
  EXPECT_EQ(s.kept[0].movie, "Movies/good.tiff");
  ASSERT_EQ(s.refused.size(), 4u);
  EXPECT_EQ(s.refused[0].second, "rlnAccumMotionTotal 40 > 20");
  EXPECT_EQ(s.refused[1].second, "frc_resolution_A 7 > 4");
  EXPECT_EQ(s.refused[2].second, "frc_resolution_A unknown");
  EXPECT_EQ(s.refused[3].second, "failed");
}

TEST(SessionSelection, NoThresholdKeepsEveryDoneMovieAndFallbackCanBeRefused) {
  std::vector<MovieRecord> v = curation_set();
  EXPECT_EQ(select(v, {}).kept.size(), 4u);
  v[0].fallback = true;
  SelectionCriteria c;
  c.exclude_fallback = true;
  EXPECT_EQ(select(v, c).kept.size(), 3u);
}

TEST(SessionSelection, WritesStarAndXmd) {
  test::TempDir dir;
  SelectionCriteria c;
  c.max_total_motion_A = 15;
  const Selection s = select(curation_set(), c);
  write_selection(s, OpticsGroup{}, dir.file("selected.star"), dir.file("selected.xmd"));
  const meta::MetadataFile star = meta::MetadataFile::read(dir.file("selected.star"));
  const meta::Block& m = star.block("micrographs");
  ASSERT_EQ(m.rows(), 3u);
  EXPECT_EQ(m.get_string("rlnMicrographName", 2), "Micrographs/unknown.mrc");
  const meta::MetadataFile xmd = meta::MetadataFile::read(dir.file("selected.xmd"));
  EXPECT_EQ(xmd.dialect(), meta::Dialect::Xmipp);
  const meta::Block& x = xmd.block("micrographs");
  ASSERT_EQ(x.rows(), 3u);
  EXPECT_EQ(x.get_string("micrograph", 0), "Micrographs/good.mrc");
  EXPECT_EQ(x.get_string("movie", 1), "Movies/blurry.tiff");
  EXPECT_EQ(x.get_int("enabled", 2), 1);
  EXPECT_DOUBLE_EQ(x.get_double("accumMotionTotal", 1), 12);
  EXPECT_EQ(test::listing(dir.path()), (std::vector<std::string>{"selected.star", "selected.xmd"}));
}

} // namespace
} // namespace frost::session
