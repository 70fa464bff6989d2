// report.html: self-contained, counts and failures in the page, thumbnails inline
// (docs/session.md#report).
#include <gtest/gtest.h>

#include "frost/core/image.hpp"
#include "frost/picture/png.hpp"
#include "frost/session/report.hpp"
#include "frost/session/report_thumbnail.hpp"
#include "frost/test/files.hpp"
#include "frost/test/support.hpp"

namespace frost::session {
namespace {

std::vector<MovieRecord> report_records() {
  std::vector<MovieRecord> out;
  for (int i = 0; i < 12; ++i) {
    MovieRecord r;
    r.movie = "Movies/m" + std::to_string(i) + ".tiff";
    r.order = i + 1;
    r.ready_at = 1.7e9 + 3.0 * i;
    r.accum_motion_total = 10 + i % 4;
    r.frc_resolution_A = 3.5 + 0.1 * i;
    out.push_back(r);
  }
  out[4].status = "failed";
  out[4].reason = "truncated: the header promises <40> frames & more";
  out[4].attempts = 2;
  return out;
}

std::size_t count_of(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

TEST(SessionReport, CountsFailuresAndNoExternalResources) {
  ReportInput in;
  in.records = report_records();
  in.pending = 3;
  const std::string html = report_html(in);
  EXPECT_NE(html.find("<b id=\"count-done\">11</b>"), std::string::npos);
  EXPECT_NE(html.find("<b id=\"count-failed\">1</b>"), std::string::npos);
  EXPECT_NE(html.find("<b id=\"count-pending\">3</b>"), std::string::npos);
  EXPECT_NE(html.find("truncated: the header promises &lt;40&gt; frames &amp; more"), std::string::npos)
      << "the reason is in the failures table, escaped";
  EXPECT_EQ(count_of(html, "<tr><td>"), 1u) << "one failure row";
  for (const char* external : {"src=\"http", "href=\"http", "<link", "src=\"//", "<iframe", "@import"})
    EXPECT_EQ(html.find(external), std::string::npos) << external;
  EXPECT_EQ(count_of(html, "</script>"), 2u) << "embedded JSON must not end its script element";
}

TEST(SessionReport, ThumbnailsAreInlinePngs) {
  if (!picture::png_supported()) GTEST_SKIP() << "built without PNG support";
  Image<float> mic(Shape::image(300, 200));
  for (index_t y = 0; y < 200; ++y)
    for (index_t x = 0; x < 300; ++x) mic(x, y) = static_cast<float>((x * 7 + y * 13) % 17);
  const ReportThumbnail t = make_report_thumbnail("Movies/m1.tiff", "latest", mic.cview(), 128, 64);
  ASSERT_GT(t.micrograph_png.size(), 8u);
  EXPECT_EQ(t.micrograph_png[1], 'P');
  ReportInput in;
  in.records = report_records();
  in.thumbnails = {t};
  const std::string html = report_html(in);
  EXPECT_NE(html.find("src=\"data:image/png;base64,iVBORw0KGgo"), std::string::npos) << "PNG signature in base64";
  EXPECT_EQ(count_of(html, "data:image/png;base64,"), 2u) << "micrograph and power spectrum";
}

TEST(SessionReport, Base64AndWorstRecord) {
  EXPECT_EQ(base64({}), "");
  EXPECT_EQ(base64({'f'}), "Zg==");
  EXPECT_EQ(base64({'f', 'o'}), "Zm8=");
  EXPECT_EQ(base64({'f', 'o', 'o', 'b', 'a', 'r'}), "Zm9vYmFy");
  const std::vector<MovieRecord> records = report_records();
  EXPECT_EQ(*worst_record(records), 11u) << "largest FRC resolution";
  EXPECT_FALSE(worst_record({}));
}

TEST(SessionReport, WrittenAtomically) {
  test::TempDir dir;
  ReportInput in;
  in.records = report_records();
  write_report(dir.file("report.html"), in);
  write_report(dir.file("report.html"), in);
  EXPECT_EQ(test::listing(dir.path()), std::vector<std::string>{"report.html"});
  EXPECT_EQ(test::slurp(dir.file("report.html")), report_html(in));
}

} // namespace
} // namespace frost::session
