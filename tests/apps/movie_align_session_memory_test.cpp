// A long CPU session keeps its memory flat (docs/session.md#tests): 1,000 tiny movies (hard links
// to one simulated movie) in one unwatched session; the process's resident memory is sampled while
// the records grow, and its peak over movies 900-999 must stay within 15 % of the memory after the
// 100th movie (about 30 MiB here: a leak of 5 KiB per movie would fail). The periodic summary
// rewrite reads every record, so the peak creeps up with the record count, by about 3 MiB over
// the 1,000; the final rewrite after the last record is left out. Every movie is done once.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <thread>

#include "movie_align_session_fixture.hpp"

namespace frost::session_app_test {
namespace {

constexpr int kMovies = 1000;

/// Resident memory of `pid` in KiB (0 once it has exited).
long resident_kib(pid_t pid) {
  std::ifstream status("/proc/" + std::to_string(pid) + "/status");
  for (std::string line; std::getline(status, line);)
    if (line.rfind("VmRSS:", 0) == 0) return std::stol(line.substr(6));
  return 0;
}

/// Lines in a file (records appended so far).
long line_count(const std::string& path) {
  std::ifstream in(path);
  return static_cast<long>(std::count(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>(), '\n'));
}

TEST(MovieAlignSessionMemory, AThousandMoviesKeepTheResidentMemoryFlat) {
  ASSERT_FALSE(tiny_movie().bytes.empty());
  test::TempDir dir;
  const std::string in = dir.file("in"), session = dir.file("S");
  fs::create_directories(in);
  write_file(dir.file("tiny.mrcs"), tiny_movie().bytes);
  for (int i = 0; i < kMovies; ++i) {
    char name[32];
    std::snprintf(name, sizeof name, "/m%04d.mrcs", i);
    fs::create_hard_link(dir.file("tiny.mrcs"), in + name);
  }
  test::Running run = test::start_program(session_command(in, session), dir.file("run"));
  const std::string records = session + "/records.jsonl";
  long at_100 = 0, late = 0, seen = 0;
  std::map<long, long> by_hundred; // records / 100 -> largest RSS seen meanwhile
  while (true) {
    const long rss = resident_kib(run.pid);
    if (rss == 0) break;
    seen = line_count(records);
    if (seen >= 100 && at_100 == 0) at_100 = rss;
    if (seen >= kMovies * 9 / 10 && seen < kMovies) late = std::max(late, rss);
    by_hundred[seen / 100] = std::max(by_hundred[seen / 100], rss);
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  for (const auto& [h, rss] : by_hundred) std::printf("  movies %ld00-%ld99: at most %ld KiB\n", h, h, rss);
  const test::Outcome o = test::finish_program(run, 600);
  ASSERT_EQ(o.exit_code, 0) << o.err;
  EXPECT_EQ(line_count(records), kMovies);
  std::printf("resident memory: %ld KiB after movie 100, at most %ld KiB over movies %d-%d\n", at_100, late,
              kMovies * 9 / 10, kMovies - 1);
  ASSERT_GT(at_100, 0) << "the session ended before its 100th record was seen";
  if (late == 0) GTEST_SKIP() << "the last tenth finished between two samples; nothing to compare";
  EXPECT_LE(late, at_100 + at_100 * 15 / 100) << "memory grew over the session";
  const std::map<std::string, std::string> states = journal_states(session);
  EXPECT_EQ(states.size(), static_cast<std::size_t>(kMovies));
  for (const auto& [movie, state] : states) ASSERT_EQ(state, "done") << movie;
}

} // namespace
} // namespace frost::session_app_test
