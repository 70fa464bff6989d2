// The JSON-lines record store both persistent caches keep their records in (libs/cache_files,
// docs/fft_advisor.md#records-and-file-discipline): lines, appends, rewrites, clearing, read-only
// directories, and the device lock files.
#include <sys/file.h>

#include <gtest/gtest.h>

#include <fstream>

#include "frost/cache/file_lock.hpp"
#include "frost/cache/record_store.hpp"
#include "frost/core/error.hpp"
#include "frost/test/log_capture.hpp"
#include "frost/test/support.hpp"

namespace frost::cache {
namespace {

RecordStore make_store(const std::string& dir, std::size_t max_line_bytes = 64) {
  return RecordStore(dir, "records.jsonl", {"test store", "record", "test-store-"}, max_line_bytes);
}

TEST(RecordStore, SplitsLinesWithoutBlankLinesOrLineEnds) {
  EXPECT_EQ(split_lines("a\n\n b\r\n \t\nc"), (std::vector<std::string>{"a", " b", "c"}));
  EXPECT_TRUE(split_lines("").empty());
}

TEST(RecordStore, AppendsAndReadsBackLines) {
  test::TempDir tmp;
  RecordStore store = make_store(tmp.file("new/dir"));
  EXPECT_FALSE(store.read_only());
  EXPECT_TRUE(store.read_lines().empty()); // no file yet: an empty store, not an error
  EXPECT_TRUE(store.append("k1", "{\"k\":1}\n"));
  EXPECT_TRUE(store.append("k2", "{\"k\":2}\n"));
  store.append_all("{\"k\":3}\n{\"k\":4}\n");
  EXPECT_EQ(store.read_lines(), (std::vector<std::string>{"{\"k\":1}", "{\"k\":2}", "{\"k\":3}", "{\"k\":4}"}));
  EXPECT_FALSE(store.append("long", std::string(80, 'x') + "\n")); // over max_line_bytes
  EXPECT_EQ(store.read_lines().size(), 4u);
}

TEST(RecordStore, RewritesUnderTheLockAndClears) {
  test::TempDir tmp;
  RecordStore store = make_store(tmp.path());
  store.rewrite("compaction", [](const std::vector<std::string>&) { return Rewrite{"never written\n", 0}; });
  EXPECT_TRUE(store.read_lines().empty()); // a missing file is left missing
  ASSERT_TRUE(store.append("a", "a\n"));
  ASSERT_TRUE(store.append("b", "b\n"));
  test::LogCapture log(tmp.file("log.txt"));
  store.rewrite("compaction", [](const std::vector<std::string>& lines) {
    EXPECT_EQ(lines, (std::vector<std::string>{"a", "b"}));
    return Rewrite{"b\n", 1};
  });
  EXPECT_EQ(store.read_lines(), std::vector<std::string>{"b"});
  EXPECT_NE(log.text().find("compaction dropped 1 malformed line"), std::string::npos) << log.text();
  store.clear();
  EXPECT_TRUE(store.read_lines().empty());
  store.clear(); // nothing to remove
}

TEST(RecordStore, ADirectoryThroughAFileIsReadOnly) {
  test::TempDir tmp;
  std::ofstream(tmp.file("plain")) << "x";
  RecordStore store = make_store(tmp.file("plain/dir"));
  EXPECT_TRUE(store.read_only());
  EXPECT_TRUE(store.read_lines().empty());
  EXPECT_FALSE(store.append("k", "k\n"));
  EXPECT_THROW(store.rewrite("compaction", [](const std::vector<std::string>&) { return Rewrite{}; }), Error);
  EXPECT_THROW(store.clear(), Error);
}

TEST(RecordStore, DeviceLockFilesAreExclusivePerDevice) {
  test::TempDir tmp;
  EXPECT_EQ(device_lock_name("GPU-1/x"), "device-GPU-1_x.lock");
  UniqueFd first = open_lock_file(tmp.file("locks"), device_lock_name("GPU-1"));
  ASSERT_TRUE(first.valid());
  ASSERT_TRUE(flock_wait(first.get(), LOCK_EX, 0.0));
  UniqueFd second = open_lock_file(tmp.file("locks"), device_lock_name("GPU-1"));
  ASSERT_TRUE(second.valid());
  EXPECT_FALSE(flock_wait(second.get(), LOCK_EX, 0.0)); // held through another open file
  UniqueFd other = open_lock_file(tmp.file("locks"), device_lock_name("GPU-2"));
  EXPECT_TRUE(flock_wait(other.get(), LOCK_EX, 0.0));
  first = UniqueFd();
  EXPECT_TRUE(flock_wait(second.get(), LOCK_EX, 0.0)); // released with its descriptor
}

} // namespace
} // namespace frost::cache
