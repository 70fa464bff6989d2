// Outputs appear whole or not at all.
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>

#include "frost/core/atomic_file.hpp"
#include "frost/core/error.hpp"
#include "frost/test/support.hpp"

namespace frost {
namespace {

bool exists(const std::string& p) {
  struct stat st {};
  return ::stat(p.c_str(), &st) == 0;
}

TEST(AtomicFile, NothingAtTheFinalPathUntilCommit) {
  test::TempDir dir;
  const std::string out = dir.file("out.txt");
  {
    AtomicFile f(out);
    f.write("hello");
    EXPECT_FALSE(exists(out));
    EXPECT_TRUE(exists(f.temporary_path()));
    f.commit();
  }
  EXPECT_EQ(read_text_file(out), "hello");
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir.path()), {}), 1);
}

TEST(AtomicFile, SyncToDiskOnlyWhenFrostFsyncAsksForIt) {
  test::TempDir dir;
  const std::pair<const char*, bool> cases[] = {{nullptr, false}, {"0", false}, {"1", true}, {"on", true}};
  for (const auto& [value, synced] : cases) {
    const test::EnvVar env("FROST_FSYNC", value);
    EXPECT_EQ(outputs_synced(), synced) << (value ? value : "(unset)");
    const std::string out = dir.file(std::string("out-") + (value ? value : "unset") + ".txt");
    AtomicFile f(out);
    f.write("synced?");
    f.commit(); // the fsync path (file, then folder) runs for the synced cases
    EXPECT_EQ(read_text_file(out), "synced?");
  }
}

TEST(AtomicFile, AbandonedWriteLeavesNothingBehind) {
  test::TempDir dir;
  const std::string out = dir.file("out.txt");
  std::string tmp;
  {
    AtomicFile f(out);
    tmp = f.temporary_path();
    f.write("partial");
  }
  EXPECT_FALSE(exists(out));
  EXPECT_FALSE(exists(tmp));
}

TEST(AtomicFile, SignalCleanupRemovesPendingTemporaries) {
  test::TempDir dir;
  AtomicFile f(dir.file("a.mrc"));
  f.write("x");
  remove_pending_temporaries();
  EXPECT_FALSE(exists(f.temporary_path()));
}

// A SIGKILL leaves `<path>.frost-tmp-<pid>` behind; the next commit of that path removes it once
// its process is gone, and leaves a living process's temporary and other files alone.
TEST(AtomicFile, CommitRemovesTemporariesOfDeadProcesses) {
  test::TempDir dir;
  const pid_t child = ::fork();
  if (child == 0) ::_exit(0);
  ASSERT_GT(child, 0);
  ::waitpid(child, nullptr, 0); // reaped: its pid is free
  const std::string dead = dir.file("m.mrc.frost-tmp-" + std::to_string(child));
  const std::string alive = dir.file("m.mrc.frost-tmp-" + std::to_string(::getppid()));
  const std::string other = dir.file("n.mrc.frost-tmp-" + std::to_string(child));
  for (const std::string& p : {dead, alive, other}) write_text_file_atomic(p, "partial");
  write_text_file_atomic(dir.file("m.mrc"), "whole");
  EXPECT_FALSE(exists(dead));
  EXPECT_TRUE(exists(alive));
  EXPECT_TRUE(exists(other)); // another output's temporary
  EXPECT_EQ(read_text_file(dir.file("m.mrc")), "whole");
}

TEST(AtomicFile, OverwritesAnExistingOutputInOneStep) {
  test::TempDir dir;
  const std::string out = dir.file("o.txt");
  write_text_file_atomic(out, "old");
  write_text_file_atomic(out, "new");
  EXPECT_EQ(read_text_file(out), "new");
}

TEST(AtomicFile, UnwritableDirectoryIsAnInputErrorNamingThePath) {
  try {
    AtomicFile f("/nonexistent-dir-frost/x.mrc");
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ExitCode::Input);
    EXPECT_NE(std::string(e.what()).find("/nonexistent-dir-frost/x.mrc"), std::string::npos);
  }
  EXPECT_THROW(read_text_file("/nonexistent-dir-frost/y"), Error);
}

} // namespace
} // namespace frost
