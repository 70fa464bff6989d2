// A run's outputs appear together: files committed inside an OutputSet stay under their
// temporary names until the set commits; an abandoned set leaves the previous outputs as they were.
#include <sys/stat.h>

#include <filesystem>
#include <thread>

#include "frost/core/atomic_file.hpp"
#include "frost/core/error.hpp"
#include "frost/test/support.hpp"

namespace frost {
namespace {

bool on_disk(const std::string& p) {
  struct stat st {};
  return ::stat(p.c_str(), &st) == 0;
}

std::size_t entries(const std::string& dir) {
  return static_cast<std::size_t>(std::distance(std::filesystem::directory_iterator(dir), {}));
}

TEST(OutputSet, FilesAppearOnlyWhenTheSetCommits) {
  test::TempDir dir;
  const std::string a = dir.file("map.mrc"), b = dir.file("map_fsc.star");
  OutputSet set;
  write_text_file_atomic(a, "map");
  write_text_file_atomic(b, "fsc");
  EXPECT_FALSE(on_disk(a));
  EXPECT_FALSE(on_disk(b));
  EXPECT_EQ(entries(dir.path()), 2u); // the two temporaries
  EXPECT_EQ(set.paths(), (std::vector<std::string>{a, b}));
  set.commit();
  EXPECT_EQ(read_text_file(a), "map");
  EXPECT_EQ(read_text_file(b), "fsc");
  EXPECT_EQ(entries(dir.path()), 2u);
}

TEST(OutputSet, AnAbandonedSetKeepsThePreviousOutputsAndRemovesItsTemporaries) {
  test::TempDir dir;
  const std::string a = dir.file("half1.mrc"), b = dir.file("half2.mrc");
  write_text_file_atomic(a, "old 1");
  write_text_file_atomic(b, "old 2");
  try {
    OutputSet set;
    write_text_file_atomic(a, "new 1");
    throw Error(ExitCode::Runtime, "the second half failed");
  } catch (const Error&) {
  }
  EXPECT_EQ(read_text_file(a), "old 1");
  EXPECT_EQ(read_text_file(b), "old 2");
  EXPECT_EQ(entries(dir.path()), 2u);
}

TEST(OutputSet, CommitReplacesEveryOldFileOfTheSet) {
  test::TempDir dir;
  const std::string a = dir.file("a.txt"), b = dir.file("b.txt");
  write_text_file_atomic(a, "old a");
  write_text_file_atomic(b, "old b");
  {
    OutputSet set;
    write_text_file_atomic(a, "new a");
    write_text_file_atomic(b, "new b");
    set.commit();
  }
  EXPECT_EQ(read_text_file(a), "new a");
  EXPECT_EQ(read_text_file(b), "new b");
}

TEST(OutputSet, AWriterThreadJoinsTheSetThroughUse) {
  test::TempDir dir;
  const std::string a = dir.file("micrograph.mrc"), b = dir.file("motion.star");
  OutputSet set;
  write_text_file_atomic(a, "mic");
  std::thread writer([&] {
    OutputSet::Use use(set);
    write_text_file_atomic(b, "motion");
  });
  writer.join();
  EXPECT_FALSE(on_disk(b));
  set.commit();
  EXPECT_EQ(read_text_file(b), "motion");
}

TEST(OutputSet, WithoutASetAFileCommitsAtOnce) {
  test::TempDir dir;
  const std::string a = dir.file("a.txt");
  {
    OutputSet set;
    set.commit(); // empty, and no longer current
    write_text_file_atomic(a, "now");
    EXPECT_TRUE(on_disk(a));
  }
  EXPECT_EQ(read_text_file(a), "now");
}

TEST(OutputSet, SignalsAreDeferredOnlyWhileRenaming) {
  EXPECT_FALSE(defer_terminating_signal(15)); // nothing is renaming: the handler goes on
}

} // namespace
} // namespace frost
