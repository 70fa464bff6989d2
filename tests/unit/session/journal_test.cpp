// The journal's states, fingerprints and parameter hash in one process (docs/session.md#journal).
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <fstream>

#include "frost/core/error.hpp"
#include "frost/session/journal.hpp"
#include "frost/test/support.hpp"

namespace frost::session {
namespace {

Fingerprint journal_movie(const std::string& name, std::int64_t size = 100, std::int64_t mtime = 1) {
  return Fingerprint{"/data/" + name, size, mtime};
}

TEST(SessionJournal, MoviesAreClaimedInDiscoveryOrderAndFinishOnce) {
  test::TempDir dir;
  Journal j(dir.path(), "hash-a");
  EXPECT_EQ(j.add(journal_movie("m1.tiff")), AddResult::New);
  EXPECT_EQ(j.add(journal_movie("m2.tiff")), AddResult::New);
  EXPECT_EQ(j.add(journal_movie("m1.tiff")), AddResult::Known);
  const Owner me = this_process(0);
  auto a = j.claim_next(me);
  auto b = j.claim_next(me);
  ASSERT_TRUE(a && b);
  EXPECT_EQ(a->fingerprint.path, "/data/m1.tiff");
  EXPECT_EQ(b->fingerprint.path, "/data/m2.tiff");
  EXPECT_EQ(a->attempts, 1);
  EXPECT_FALSE(j.claim_next(me)) << "both movies are running";
  EXPECT_TRUE(j.finish(a->id, me));
  EXPECT_FALSE(j.finish(a->id, me)) << "a movie is done once";
  EXPECT_TRUE(j.fail(b->id, me, "truncated: header promises 10 frames"));
  const JournalCounts c = j.counts();
  EXPECT_EQ(c.done, 1);
  EXPECT_EQ(c.failed, 1);
  EXPECT_EQ(c.total(), 2);
  EXPECT_EQ(j.find("/data/m2.tiff")->reason, "truncated: header promises 10 frames");
  EXPECT_EQ(j.entries(MovieState::Done).size(), 1u);
}

TEST(SessionJournal, AnotherWorkerCannotFinishAMovie) {
  test::TempDir dir;
  Journal j(dir.path(), "h");
  j.add(journal_movie("m.mrc"));
  auto e = j.claim_next(this_process(0));
  ASSERT_TRUE(e);
  EXPECT_FALSE(j.finish(e->id, this_process(1)));
  EXPECT_EQ(j.find("/data/m.mrc")->state, MovieState::Running);
}

TEST(SessionJournal, ChangedFileIsUpdatedWhileSeenAndKeptOnceDone) {
  test::TempDir dir;
  Journal j(dir.path(), "h");
  j.add(journal_movie("grow.mrc", 100, 1));
  EXPECT_EQ(j.add(journal_movie("grow.mrc", 200, 2)), AddResult::Changed);
  EXPECT_EQ(j.find("/data/grow.mrc")->fingerprint.size, 200);
  auto e = j.claim_next(this_process());
  j.finish(e->id, this_process());
  EXPECT_EQ(j.add(journal_movie("grow.mrc", 300, 3)), AddResult::Known);
  EXPECT_EQ(j.find("/data/grow.mrc")->state, MovieState::Done);
}

TEST(SessionJournal, OtherParametersAreRefusedUnlessOverwrite) {
  test::TempDir dir;
  {
    Journal j(dir.path(), "1111111111111111");
    j.add(journal_movie("m.mrc"));
    auto e = j.claim_next(this_process());
    j.finish(e->id, this_process());
  }
  try {
    Journal j(dir.path(), "2222222222222222");
    FAIL() << "a session made with other parameters was opened";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::Usage);
    const std::string what = e.what();
    EXPECT_NE(what.find("1111111111111111"), std::string::npos) << what;
    EXPECT_NE(what.find("2222222222222222"), std::string::npos) << what;
    EXPECT_NE(what.find("--overwrite"), std::string::npos) << what;
  }
  JournalOptions redo;
  redo.overwrite = true;
  Journal j(dir.path(), "2222222222222222", redo);
  EXPECT_EQ(j.counts().seen, 1) << "the movie done with the old parameters is redone";
  Journal again(dir.path(), "2222222222222222", redo);
  auto e = j.claim_next(this_process());
  ASSERT_TRUE(e);
  EXPECT_EQ(e->parameter_hash, "2222222222222222");
  Journal third(dir.path(), "2222222222222222", redo);
  EXPECT_EQ(third.counts().running, 1) << "reopening with the same parameters must not reset running movies";
}

TEST(SessionJournal, ClaimStopsWhenAnotherProcessSwitchedParameters) {
  test::TempDir dir;
  Journal old_params(dir.path(), "aaaa");
  old_params.add(journal_movie("m.mrc"));
  JournalOptions redo;
  redo.overwrite = true;
  Journal new_params(dir.path(), "bbbb", redo);
  EXPECT_THROW(old_params.claim_next(this_process()), Error);
  EXPECT_TRUE(new_params.claim_next(this_process()));
}

TEST(SessionJournal, RetryFailedPutsFailedMoviesBack) {
  test::TempDir dir;
  {
    Journal j(dir.path(), "h");
    j.add(journal_movie("bad.mrc"));
    auto e = j.claim_next(this_process());
    j.fail(e->id, this_process(), "corrupt");
  }
  EXPECT_EQ(Journal(dir.path(), "h").counts().failed, 1) << "failed movies stay failed by default";
  JournalOptions retry;
  retry.retry_failed = true;
  Journal j(dir.path(), "h", retry);
  EXPECT_EQ(j.counts().seen, 1);
  auto e = j.claim_next(this_process());
  ASSERT_TRUE(e);
  EXPECT_EQ(e->attempts, 2);
}

TEST(SessionJournal, DeferredMovieWaitsAndIsNotCountedAsAnAttempt) {
  test::TempDir dir;
  Journal j(dir.path(), "h");
  j.add(journal_movie("slow.tiff"));
  auto e = j.claim_next(this_process());
  ASSERT_TRUE(j.defer(e->id, this_process(), "not complete yet", 3600));
  EXPECT_FALSE(j.claim_next(this_process())) << "a deferred movie waits for its retry time";
  const MovieEntry row = *j.find("/data/slow.tiff");
  EXPECT_EQ(row.state, MovieState::Seen);
  EXPECT_EQ(row.attempts, 0);
  EXPECT_EQ(row.reason, "not complete yet");
  Journal other(dir.path(), "h");
  other.add(journal_movie("next.tiff"));
  auto next = j.claim_next(this_process());
  ASSERT_TRUE(next);
  EXPECT_EQ(next->fingerprint.path, "/data/next.tiff");
}

TEST(SessionJournal, DatabaseIsSqliteInWalModeWithTheDocumentedStates) {
  test::TempDir dir;
  {
    Journal j(dir.path(), "h");
    j.add(journal_movie("m.mrc"));
  }
  // Read with SQLite itself: the file is a plain SQLite database other tools can query.
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open_v2(dir.file(Journal::kFileName).c_str(), &db, SQLITE_OPEN_READONLY, nullptr), SQLITE_OK);
  sqlite3_stmt* st = nullptr;
  ASSERT_EQ(sqlite3_prepare_v2(db, "PRAGMA journal_mode", -1, &st, nullptr), SQLITE_OK);
  ASSERT_EQ(sqlite3_step(st), SQLITE_ROW);
  EXPECT_STREQ(reinterpret_cast<const char*>(sqlite3_column_text(st, 0)), "wal");
  sqlite3_finalize(st);
  ASSERT_EQ(sqlite3_prepare_v2(db, "SELECT path, state, size FROM movies", -1, &st, nullptr), SQLITE_OK);
  ASSERT_EQ(sqlite3_step(st), SQLITE_ROW);
  EXPECT_STREQ(reinterpret_cast<const char*>(sqlite3_column_text(st, 0)), "/data/m.mrc");
  EXPECT_STREQ(reinterpret_cast<const char*>(sqlite3_column_text(st, 1)), "seen");
  EXPECT_EQ(sqlite3_column_int64(st, 2), 100);
  sqlite3_finalize(st);
  sqlite3_close(db);
}

// Several hosts (docs/session.md#journal): without WAL the journal is in rollback mode, also when
// the session was made in WAL mode, and leaves no shared-memory index beside it; the movies stay.
TEST(SessionJournal, WithoutWalTheFileIsInRollbackModeAndKeepsItsMovies) {
  test::TempDir dir;
  {
    Journal made(dir.path(), "h"); // WAL, as a session on one host makes it
    made.add(journal_movie("m.mrc"));
  }
  JournalOptions shared;
  shared.wal = false;
  {
    Journal j(dir.path(), "h", shared);
    const auto e = j.claim_next(this_process(0));
    ASSERT_TRUE(e.has_value());
    EXPECT_TRUE(j.finish(e->id, this_process(0)));
    EXPECT_EQ(j.counts().done, 1);
  }
  const auto journal_mode = [&] {
    sqlite3* db = nullptr;
    EXPECT_EQ(sqlite3_open_v2(dir.file(Journal::kFileName).c_str(), &db, SQLITE_OPEN_READONLY, nullptr), SQLITE_OK);
    sqlite3_stmt* st = nullptr;
    EXPECT_EQ(sqlite3_prepare_v2(db, "PRAGMA journal_mode", -1, &st, nullptr), SQLITE_OK);
    EXPECT_EQ(sqlite3_step(st), SQLITE_ROW);
    const std::string mode = reinterpret_cast<const char*>(sqlite3_column_text(st, 0));
    sqlite3_finalize(st);
    sqlite3_close(db);
    return mode;
  };
  EXPECT_EQ(journal_mode(), "delete");
  EXPECT_FALSE(std::ifstream(dir.file(std::string(Journal::kFileName) + "-shm")).good());
}

TEST(SessionJournal, ParameterHashIgnoresOrderAndSeesValues) {
  EXPECT_EQ(parameter_hash({{"a", "1"}, {"b", "2"}}), parameter_hash({{"b", "2"}, {"a", "1"}}));
  EXPECT_NE(parameter_hash({{"a", "1"}, {"b", "2"}}), parameter_hash({{"a", "1"}, {"b", "3"}}));
  EXPECT_EQ(parameter_hash({}).size(), 16u);
}

TEST(SessionJournal, FingerprintReadsSizeAndMtime) {
  test::TempDir dir;
  std::ofstream(dir.file("f.bin")) << "12345";
  const Fingerprint f = fingerprint_of(dir.file("f.bin"));
  EXPECT_EQ(f.size, 5);
  EXPECT_GT(f.mtime_ns, 0);
  EXPECT_THROW(fingerprint_of(dir.file("missing")), Error);
}

} // namespace
} // namespace frost::session
