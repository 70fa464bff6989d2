// The input of a session: -i forms, and files reported as they appear, by inotify and by
// polling (docs/session.md#watcher).
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/time.h>

#include <cstdio>
#include <fstream>
#include <thread>

#include "frost/core/error.hpp"
#include "frost/session/watcher.hpp"
#include "frost/test/support.hpp"

namespace frost::session {
namespace {

using WatchClock = std::chrono::steady_clock;

void write_watched_file(const std::string& path, const std::string& text = "data") { std::ofstream(path) << text; }

/// Calls next() until `path` is reported or `limit` passes; the event, and how long it took.
// The first event for `path`; with `closed_only`, the first that reports it closed (the watcher may
// report a file on its creation first, when the close arrives in a later read).
std::pair<std::optional<WatchEvent>, double> wait_for(Watcher& w, const std::string& path, double limit_s = 3.0,
                                                      bool closed_only = false) {
  const auto t0 = WatchClock::now();
  while (std::chrono::duration<double>(WatchClock::now() - t0).count() < limit_s) {
    for (const WatchEvent& e : w.next(std::chrono::milliseconds(100)))
      if (e.path == path && (e.closed || !closed_only))
        return {e, std::chrono::duration<double>(WatchClock::now() - t0).count()};
  }
  return {std::nullopt, limit_s};
}

TEST(SessionInputSpec, FolderGlobAndFile) {
  test::TempDir dir;
  const InputSpec folder = parse_input_spec(dir.path() + "/");
  EXPECT_EQ(folder.folder, dir.path());
  EXPECT_EQ(folder.pattern, "*");
  const InputSpec glob = parse_input_spec("Movies/*.tiff");
  EXPECT_EQ(glob.folder, "Movies");
  EXPECT_EQ(glob.pattern, "*.tiff");
  EXPECT_EQ(parse_input_spec("a.mrc").folder, ".");
  EXPECT_THROW(parse_input_spec("Movies/*/a.tiff"), Error);
  EXPECT_TRUE(matches(glob, "FoilHole_1.tiff"));
  EXPECT_FALSE(matches(glob, "FoilHole_1.mrc"));
  EXPECT_FALSE(matches(glob, ".FoilHole_1.tiff.Xa3fz")) << "hidden temporaries of copy tools";
  EXPECT_FALSE(matches(folder, ".hidden"));
}

TEST(SessionWatcher, FirstCallListsPresentFilesOldestFirst) {
  test::TempDir dir;
  write_watched_file(dir.file("b.mrc"));
  write_watched_file(dir.file("a.mrc"));
  write_watched_file(dir.file("notes.txt"));
  // b is older than a: acquisition order is mtime order, not name order.
  const timeval old_time[2] = {{1000000, 0}, {1000000, 0}};
  ASSERT_EQ(::utimes(dir.file("b.mrc").c_str(), old_time), 0);
  Watcher w(parse_input_spec(dir.path() + "/*.mrc"));
  const std::vector<WatchEvent> first = w.next(std::chrono::milliseconds(0));
  ASSERT_EQ(first.size(), 2u);
  EXPECT_EQ(first[0].path, dir.file("b.mrc"));
  EXPECT_EQ(first[1].path, dir.file("a.mrc"));
  EXPECT_TRUE(w.next(std::chrono::milliseconds(50)).empty()) << "nothing new";
}

TEST(SessionWatcher, InotifyReportsClosedAndRenamedFilesWithinASecond) {
  test::TempDir dir;
  Watcher w(parse_input_spec(dir.path() + "/*.tiff"));
  if (!w.uses_inotify()) GTEST_SKIP() << "no inotify here: " << w.mode();
  EXPECT_EQ(w.mode(), "inotify");
  EXPECT_TRUE(w.next(std::chrono::milliseconds(0)).empty());
  std::thread writer([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    write_watched_file(dir.file("m1.tiff"));
  });
  const auto [event, seconds] = wait_for(w, dir.file("m1.tiff"), 3.0, true);
  writer.join();
  ASSERT_TRUE(event);
  EXPECT_TRUE(event->closed);
  EXPECT_LT(seconds, 1.0) << "a movie must start at most 1 s after it is complete";
  write_watched_file(dir.file(".m2.tiff.part"));
  ASSERT_EQ(std::rename(dir.file(".m2.tiff.part").c_str(), dir.file("m2.tiff").c_str()), 0);
  const auto renamed = wait_for(w, dir.file("m2.tiff"), 3.0, true).first;
  ASSERT_TRUE(renamed);
  EXPECT_TRUE(renamed->closed);
  write_watched_file(dir.file("other.mrc"));
  EXPECT_TRUE(w.next(std::chrono::milliseconds(100)).empty()) << "files outside the pattern are not reported";
}

TEST(SessionWatcher, PollingReportsNewAndChangedFiles) {
  test::TempDir dir;
  WatcherOptions opts;
  opts.poll = true;
  opts.poll_interval_s = 0.05;
  Watcher w(parse_input_spec(dir.path()), opts);
  EXPECT_FALSE(w.uses_inotify());
  EXPECT_NE(w.mode().find("polling"), std::string::npos);
  write_watched_file(dir.file("m.mrc"));
  EXPECT_TRUE(w.next(std::chrono::milliseconds(0)).size() == 1u) << "the first call lists what is there";
  write_watched_file(dir.file("n.mrc"));
  const auto [event, seconds] = wait_for(w, dir.file("n.mrc"));
  ASSERT_TRUE(event);
  EXPECT_FALSE(event->closed) << "polling cannot see closes";
  EXPECT_LT(seconds, 1.0);
  write_watched_file(dir.file("m.mrc"), "more data, another size");
  EXPECT_TRUE(wait_for(w, dir.file("m.mrc")).first) << "a changed file is reported again";
}

TEST(SessionWatcher, MissingFolderIsAnInputError) {
  test::TempDir dir;
  try {
    Watcher w(parse_input_spec(dir.file("nope") + "/*.tiff"));
    FAIL() << "watching a missing folder";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::Input);
  }
}

TEST(SessionIdleTimer, ExpiresAfterTheTimeoutWithoutProgress) {
  const IdleTimer::Clock::time_point t0{};
  IdleTimer t(10.0, t0);
  EXPECT_FALSE(t.expired(t0 + std::chrono::seconds(9)));
  t.progress(t0 + std::chrono::seconds(9));
  EXPECT_FALSE(t.expired(t0 + std::chrono::seconds(18)));
  EXPECT_TRUE(t.expired(t0 + std::chrono::seconds(19)));
  EXPECT_NEAR(t.remaining(t0 + std::chrono::seconds(12)), 7.0, 1e-9);
}

} // namespace
} // namespace frost::session
