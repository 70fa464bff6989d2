// A long CPU session keeps its memory flat (docs/session.md#tests): 1,000 tiny movies (hard links
// to one simulated movie) in one unwatched session; the process's resident memory is sampled while
// the records grow, and its peak over movies 900-999 must stay within 15 % of the memory after the
// 100th movie (about 30 MiB here: a leak of 5 KiB per movie would fail). The periodic summary
// rewrite reads every record, so the peak creeps up with the record count, by about 3 MiB over
// the 1,000; the final rewrite after the last record is left out. Every movie is done once.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <string>
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

/// Lines appended to a file so far, read incrementally: the records file is polled every 20 ms
/// while the session runs, and rereading it whole would load the core the session runs on.
class LineCounter {
public:
  explicit LineCounter(std::string path) : path_(std::move(path)) {}
  long count() {
    std::ifstream in(path_, std::ios::binary);
    if (!in) return lines_;
    in.seekg(static_cast<std::streamoff>(offset_));
    char buffer[1 << 16];
    while (in.read(buffer, sizeof buffer) || in.gcount() > 0) {
      lines_ += std::count(buffer, buffer + in.gcount(), '\n');
      offset_ += static_cast<std::size_t>(in.gcount());
    }
    return lines_;
  }

private:
  std::string path_;
  std::size_t offset_ = 0;
  long lines_ = 0;
};

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
  LineCounter record_lines(records);
  long at_100 = 0, late = 0, seen = 0;
  std::map<long, long> by_hundred; // records / 100 -> largest RSS seen meanwhile
  while (true) {
    const long rss = resident_kib(run.pid);
    if (rss == 0) break;
    seen = record_lines.count();
    if (seen >= 100 && at_100 == 0) at_100 = rss;
    if (seen >= kMovies * 9 / 10 && seen < kMovies) late = std::max(late, rss);
    by_hundred[seen / 100] = std::max(by_hundred[seen / 100], rss);
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  for (const auto& [h, rss] : by_hundred) std::printf("  movies %ld00-%ld99: at most %ld KiB\n", h, h, rss);
  const test::Outcome o = test::finish_program(run, 600);
  ASSERT_EQ(o.exit_code, 0) << o.err;
  EXPECT_EQ(LineCounter(records).count(), kMovies);
  // Peaks against peaks: the most over movies 100-199 against the most over the last tenth (a
  // single early sample could fall between two frees and releases of the heap).
  const long early = by_hundred.count(1) ? by_hundred[1] : 0;
  std::printf("resident memory: %ld KiB after movie 100, at most %ld KiB over movies 100-199, at most %ld KiB over "
              "movies %d-%d\n",
              at_100, early, late, kMovies * 9 / 10, kMovies - 1);
  ASSERT_GT(at_100, 0) << "the session ended before its 100th record was seen";
  if (late == 0) GTEST_SKIP() << "the last tenth finished between two samples; nothing to compare";
  EXPECT_LE(late, std::max(early, at_100) * 115 / 100) << "memory grew over the session";
  const std::map<std::string, std::string> states = journal_states(session);
  EXPECT_EQ(states.size(), static_cast<std::size_t>(kMovies));
  for (const auto& [movie, state] : states) ASSERT_EQ(state, "done") << movie;
}

} // namespace
} // namespace frost::session_app_test
