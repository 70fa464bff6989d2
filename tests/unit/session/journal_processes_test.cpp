// The journal shared by several processes: each movie claimed once, and the rows of a killed
// process taken back (docs/session.md#journal).
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <exception>
#include <fstream>
#include <set>
#include <string>
#include <vector>

#include "frost/session/journal.hpp"
#include "frost/test/support.hpp"

namespace frost::session {
namespace {

/// Runs `body` in a child process; returns its exit status (-signal when killed).
template <class F>
int run_in_child(F body) {
  const pid_t pid = ::fork();
  if (pid == 0) {
    int rc = 0;
    try {
      rc = body();
    } catch (...) {
      rc = 99;
    }
    ::_exit(rc);
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -WTERMSIG(status);
}

TEST(SessionJournalProcesses, ForkedWorkersNeverClaimTheSameMovie) {
  test::TempDir dir;
  constexpr int kMovies = 60, kWorkers = 4;
  {
    Journal j(dir.path(), "h");
    for (int i = 0; i < kMovies; ++i) j.add(Fingerprint{"/m/" + std::to_string(i) + ".mrc", 1, 1});
  }
  std::vector<pid_t> children;
  for (int w = 0; w < kWorkers; ++w) {
    const pid_t pid = ::fork();
    if (pid == 0) {
      int rc = 0;
      try {
        Journal j(dir.path(), "h");
        std::ofstream out(dir.file("claims" + std::to_string(w)));
        const Owner me = this_process(w);
        while (auto e = j.claim_next(me)) {
          out << e->id << "\n" << std::flush;
          if (!j.finish(e->id, me)) rc = 2;
        }
      } catch (...) {
        rc = 3;
      }
      ::_exit(rc);
    }
    children.push_back(pid);
  }
  for (pid_t pid : children) {
    int status = 0;
    ::waitpid(pid, &status, 0);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "worker status " << status;
  }
  std::multiset<long> claimed;
  for (int w = 0; w < kWorkers; ++w) {
    std::ifstream in(dir.file("claims" + std::to_string(w)));
    long id = 0;
    while (in >> id) claimed.insert(id);
  }
  EXPECT_EQ(claimed.size(), static_cast<std::size_t>(kMovies)) << "every movie claimed exactly once";
  EXPECT_EQ(std::set<long>(claimed.begin(), claimed.end()).size(), static_cast<std::size_t>(kMovies));
  EXPECT_EQ(Journal(dir.path(), "h").counts().done, kMovies);
}

// Ranks started together open one new journal at the same moment (mpirun): each must get it, in
// WAL mode, while the others create it, switch its mode and write. 20 rounds of 6 processes
// released together by a pipe.
TEST(SessionJournalProcesses, ProcessesOpeningANewJournalTogetherAllGetIt) {
  constexpr int kRounds = 20, kProcesses = 6;
  for (int round = 0; round < kRounds; ++round) {
    test::TempDir dir;
    int gate[2];
    ASSERT_EQ(::pipe(gate), 0);
    std::vector<pid_t> children;
    for (int p = 0; p < kProcesses; ++p) {
      const pid_t pid = ::fork();
      if (pid == 0) {
        ::close(gate[1]);
        char c;
        if (::read(gate[0], &c, 1) != 0) ::_exit(4); // released when the parent closes its end
        int rc = 0;
        try {
          Journal j(dir.path(), "h");
          j.add(Fingerprint{"/m/" + std::to_string(p) + ".mrc", 1, 1});
          while (auto e = j.claim_next(this_process(p)))
            if (!j.finish(e->id, this_process(p))) rc = 2;
        } catch (const std::exception& e) {
          std::fprintf(stderr, "process %d: %s\n", p, e.what());
          rc = 3;
        }
        ::_exit(rc);
      }
      children.push_back(pid);
    }
    ::close(gate[0]);
    ::close(gate[1]);
    for (pid_t pid : children) {
      int status = 0;
      ::waitpid(pid, &status, 0);
      EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "round " << round << ": status " << status;
    }
    EXPECT_EQ(Journal(dir.path(), "h").counts().done, kProcesses) << "round " << round;
    if (HasFailure()) return;
  }
}

TEST(SessionJournalProcesses, RowsOfAKilledProcessGoBackToSeen) {
  test::TempDir dir;
  Journal(dir.path(), "h").add(Fingerprint{"/m/a.mrc", 1, 1});
  const int status = run_in_child([&] {
    Journal j(dir.path(), "h");
    if (!j.claim_next(this_process())) return 1;
    ::raise(SIGKILL); // killed while aligning: the row stays running
    return 0;
  });
  EXPECT_EQ(status, -SIGKILL);
  Journal j(dir.path(), "h");
  const MovieEntry row = *j.find("/m/a.mrc");
  EXPECT_EQ(row.state, MovieState::Seen);
  EXPECT_NE(row.reason.find("interrupted"), std::string::npos) << row.reason;
  auto e = j.claim_next(this_process());
  ASSERT_TRUE(e);
  EXPECT_EQ(e->attempts, 2);
}

TEST(SessionJournalProcesses, AMovieThatKeepsKillingItsWorkerFails) {
  test::TempDir dir;
  JournalOptions opts;
  opts.max_attempts = 2;
  Journal(dir.path(), "h", opts).add(Fingerprint{"/m/crash.mrc", 1, 1});
  for (int round = 0; round < 2; ++round) {
    run_in_child([&] {
      Journal j(dir.path(), "h", opts);
      if (!j.claim_next(this_process())) return 1;
      ::raise(SIGKILL);
      return 0;
    });
  }
  Journal j(dir.path(), "h", opts);
  const MovieEntry row = *j.find("/m/crash.mrc");
  EXPECT_EQ(row.state, MovieState::Failed);
  EXPECT_NE(row.reason.find("2 times"), std::string::npos) << row.reason;
}

TEST(SessionJournalProcesses, RunningRowsOfALiveProcessAreKept) {
  test::TempDir dir;
  Journal mine(dir.path(), "h");
  mine.add(Fingerprint{"/m/a.mrc", 1, 1});
  ASSERT_TRUE(mine.claim_next(this_process(3)));
  // Another process opening the session must leave our running movie alone.
  const int status = run_in_child([&] {
    Journal j(dir.path(), "h");
    return j.counts().running == 1 && !j.claim_next(this_process()) ? 0 : 1;
  });
  EXPECT_EQ(status, 0);
}

TEST(SessionJournalProcesses, OwnerLivenessUsesPidAndStartTime) {
  Owner me = this_process();
  EXPECT_EQ(liveness(me), Liveness::Alive);
  EXPECT_GT(me.start_ticks, 0);
  Owner reused = me;
  reused.start_ticks += 12345; // same pid, another process start: the pid was reused
  EXPECT_EQ(liveness(reused), Liveness::Gone);
  Owner elsewhere = me;
  elsewhere.host = "another-host-of-the-cluster";
  EXPECT_EQ(liveness(elsewhere), Liveness::Unknown);
  const pid_t child = ::fork();
  if (child == 0) ::_exit(0);
  int status = 0;
  ::waitpid(child, &status, 0);
  Owner gone = me;
  gone.pid = child;
  gone.start_ticks = 0;
  EXPECT_EQ(liveness(gone), Liveness::Gone);
}

} // namespace
} // namespace frost::session
