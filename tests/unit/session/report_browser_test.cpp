// report.html in a real headless browser: the page's script runs without an exception and the
// page shows the session's counts (docs/session.md#report). Needs Debian's chromium
// (scripts/install_chromium.sh); skips with the reason without it.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>

#include "frost/session/report.hpp"
#include "frost/test/support.hpp"

namespace frost::session {
namespace {

std::string find_chromium() {
  for (const char* name : {"chromium", "chromium-browser"}) {
    const std::string probe = std::string("command -v ") + name + " >/dev/null 2>&1";
    if (std::system(probe.c_str()) == 0) return name;
  }
  return "";
}

/// The DOM after the page's scripts ran, as chromium --dump-dom prints it.
std::string dump_dom(const std::string& browser, const std::string& page, const std::string& profile) {
  const std::string cmd = "timeout 120 " + browser + " --headless --no-sandbox --disable-gpu --disable-dev-shm-usage" +
                          " --user-data-dir=" + profile + " --dump-dom file://" + page + " 2>/dev/null";
  std::string out;
  if (FILE* p = ::popen(cmd.c_str(), "r")) {
    char buf[4096];
    std::size_t n = 0;
    while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
    ::pclose(p);
  }
  return out;
}

TEST(SessionReportBrowser, ChromiumRunsTheScriptAndShowsTheCounts) {
  const std::string browser = find_chromium();
  if (browser.empty()) GTEST_SKIP() << "chromium not installed (scripts/install_chromium.sh)";
  test::TempDir dir;
  ReportInput in;
  for (int i = 0; i < 7; ++i) {
    MovieRecord r;
    r.movie = "Movies/b" + std::to_string(i) + ".mrc";
    r.order = i + 1;
    r.ready_at = 1.7e9 + 2.0 * i;
    r.accum_motion_total = 5 + i;
    r.frc_resolution_A = 4 + 0.2 * i;
    if (i == 3 || i == 5) {
      r.status = "failed";
      r.reason = "corrupt </script><b>header";
    }
    in.records.push_back(r);
  }
  write_report(dir.file("report.html"), in);
  const std::string dom = dump_dom(browser, dir.file("report.html"), dir.file("profile"));
  ASSERT_FALSE(dom.empty()) << browser << " printed no DOM";
  EXPECT_EQ(dom.find("id=\"frost-report-error\""), std::string::npos) << dom.substr(0, 2000);
  EXPECT_NE(dom.find("id=\"frost-report-ok\""), std::string::npos) << "the page's script did not finish";
  EXPECT_NE(dom.find("data-done=\"5\""), std::string::npos);
  EXPECT_NE(dom.find("data-failed=\"2\""), std::string::npos);
  // throughput (5 done with times) + motion (5) + FRC (5) points drawn.
  EXPECT_NE(dom.find("data-points=\"15\""), std::string::npos);
  EXPECT_NE(dom.find("<b id=\"count-done\">5</b>"), std::string::npos);
  EXPECT_NE(dom.find("<b id=\"count-failed\">2</b>"), std::string::npos);
  EXPECT_NE(dom.find("<circle"), std::string::npos) << "the scatter plots were drawn";
}

} // namespace
} // namespace frost::session
