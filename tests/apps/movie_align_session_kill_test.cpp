// SIGKILL at random moments in a watched session (docs/session.md#tests): movies arrive in the
// watched folder while the session runs (half renamed into place, half written in place), the
// process is killed at a random time, the rest arrive, and the same command run again must
// complete the set: one `done` per movie in the journal, every micrograph as a plain run makes
// it, every record line whole, no temporary left.
#include <gtest/gtest.h>

#include <csignal>
#include <random>
#include <thread>

#include "movie_align_session_fixture.hpp"

namespace frost::session_app_test {
namespace {

constexpr int kKillMovies = 50;
constexpr int kKillRounds = 10;

/// Puts movie `i` into `in`: even ones written to a hidden name and renamed (as rsync does), odd
/// ones written in place.
void deliver_movie(const std::string& in, int i) {
  const std::string name = movie_name(i) + ".mrcs";
  if (i % 2 == 0) {
    write_file(in + "/." + name + ".part", tiny_movie().bytes);
    fs::rename(in + "/." + name + ".part", in + "/" + name);
  } else {
    write_file(in + "/" + name, tiny_movie().bytes);
  }
}

TEST(MovieAlignSessionKill, EveryRerunAfterSigkillCompletesTheSet) {
  ASSERT_FALSE(tiny_movie().bytes.empty());
  std::mt19937 rng(27);
  std::uniform_real_distribution<double> kill_after(0.0, 0.9);
  std::vector<std::string> names;
  for (int i = 0; i < kKillMovies; ++i) names.push_back(movie_name(i));
  for (int round = 0; round < kKillRounds; ++round) {
    test::TempDir dir;
    const std::string in = dir.file("in"), session = dir.file("S");
    fs::create_directories(in);
    // The killed run would wait longer than the kill comes; the rerun ends soon after the last movie.
    const std::string command = session_command(in, session, " --watch --watch-timeout 0.5");
    const std::string killed_command = session_command(in, session, " --watch --watch-timeout 5");
    const double delay = kill_after(rng);
    test::Running r = test::start_program(killed_command, dir.file("killed"));
    // Movies arrive every 20 ms once the watcher runs, and are aligned about as fast: a kill in
    // the first 0.9 s lands while movies are read, aligned, written (behind) or recorded.
    while (test::slurp(dir.file("killed.err")).find("watching") == std::string::npos && test::since(r.start) < 30)
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    const test::Clock::time_point watching = test::Clock::now();
    int delivered = 0;
    bool killed = false;
    while (delivered < kKillMovies || !killed) {
      if (!killed && test::since(watching) >= delay) {
        ASSERT_FALSE(test::program_ended(r)) << "round " << round << ": the session ended before the kill";
        ASSERT_EQ(::kill(r.pid, SIGKILL), 0);
        killed = true;
      }
      if (delivered < kKillMovies) deliver_movie(in, delivered++);
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    const test::Outcome k = test::finish_program(r, 30);
    EXPECT_EQ(k.signal, SIGKILL) << "round " << round << ": " << k.status();
    const auto after_kill = journal_states(session);
    std::size_t done = 0;
    for (const auto& [path, state] : after_kill) done += state == "done";
    std::printf("[kill] round %d: SIGKILL after %.2f s, %zu of %d movies done, %zu temporaries left\n", round, delay,
                done, kKillMovies, temporaries_under(dir.path()).size());

    const test::Outcome rerun = run_to_end(command, dir.file("rerun"));
    ASSERT_EQ(rerun.exit_code, 0) << "round " << round << ": " << rerun.status() << "\n" << rerun.err;
    expect_complete_session(in, session, names, "round " + std::to_string(round));
  }
}

} // namespace
} // namespace frost::session_app_test
