// C8: the cache file (docs/fft_advisor.md#answer-cache): store and lookup, malformed lines, duplicate keys,
// the memory-limit miss rule, read-only directories, clear, compact, export and import.
#include <fcntl.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <filesystem>

#include "cache_test_util.hpp"
#include "frost/core/error.hpp"
#include "frost/fft/advisor_cache.hpp"
#include "frost/test/support.hpp"

namespace frost::fft {
namespace {

using test::append_raw;
using test::LogCapture;
using test::make_record;
using test::slurp;

TEST(AdvisorCache, StoresAndLooksUpInANewDirectory) {
  frost::test::TempDir tmp;
  AdvisorCache cache(tmp.file("nested/cache"));
  EXPECT_FALSE(cache.read_only());
  EXPECT_EQ(cache.file(), tmp.file("nested/cache") + "/fft-sizes.jsonl");
  EXPECT_FALSE(cache.lookup("k1").has_value()); // no file yet: a miss, not an error
  EXPECT_TRUE(cache.store(make_record("k1", "heuristic", "", 100, 2304)));
  EXPECT_TRUE(cache.store(make_record("k2", "measured", "", 100, 2310)));
  const auto hit = cache.lookup("k1");
  ASSERT_TRUE(hit.has_value());
  EXPECT_EQ(hit->answer.size.x, 2304);
  EXPECT_FALSE(hit->time_iso8601.empty()); // filled in by store()
  EXPECT_FALSE(hit->host.empty());
  EXPECT_EQ(cache.lookup("k2")->answer.size.x, 2310);
  EXPECT_FALSE(cache.lookup("k3").has_value());
  EXPECT_EQ(cache.records().size(), 2u);
  // One line per record.
  const std::string text = slurp(cache.file());
  EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 2);
}

TEST(AdvisorCache, SkipsMalformedLinesWithOneWarning) {
  frost::test::TempDir tmp;
  AdvisorCache cache(tmp.path());
  ASSERT_TRUE(cache.store(make_record("good-1")));
  const std::string good2 = record_to_json(make_record("good-2"));
  append_raw(cache.file(), "{not json\n\n" + good2.substr(0, 40) + "\n{\"record\":1}\n");
  ASSERT_TRUE(cache.store(make_record("good-3")));
  append_raw(cache.file(), "garbage without newline at the end");
  ASSERT_TRUE(cache.store(make_record("good-4"))); // must start on a fresh line

  LogCapture log(tmp.file("log.txt"));
  const auto all = cache.records();
  ASSERT_EQ(all.size(), 3u);
  EXPECT_EQ(all[0].key, "good-1");
  EXPECT_EQ(all[1].key, "good-3");
  EXPECT_EQ(all[2].key, "good-4");
  EXPECT_TRUE(cache.lookup("good-4").has_value());
  EXPECT_TRUE(cache.lookup("good-1").has_value());
  (void)cache.records();
  EXPECT_EQ(log.warnings(), 1) << log.text();
  EXPECT_NE(log.text().find("4 malformed lines"), std::string::npos) << log.text();
}

TEST(AdvisorCache, DuplicateKeysPreferMeasuredThenNewest) {
  frost::test::TempDir tmp;
  AdvisorCache cache(tmp.path());
  ASSERT_TRUE(cache.store(make_record("k", "measured", "2025-01-01T00:00:00.000Z", 100, 1)));
  ASSERT_TRUE(cache.store(make_record("k", "heuristic", "2025-12-01T00:00:00.000Z", 100, 2)));
  EXPECT_EQ(cache.lookup("k")->answer.size.x, 1); // measured beats a newer heuristic answer
  ASSERT_TRUE(cache.store(make_record("k", "measured", "2025-06-01T00:00:00.000Z", 100, 3)));
  ASSERT_TRUE(cache.store(make_record("k", "measured", "2025-03-01T00:00:00.000Z", 100, 4)));
  EXPECT_EQ(cache.lookup("k")->answer.size.x, 3); // the newest measured one, wherever it is
  ASSERT_TRUE(cache.store(make_record("k", "measured", "2025-06-01T00:00:00.000Z", 100, 5)));
  EXPECT_EQ(cache.lookup("k")->answer.size.x, 5); // equal times: the later line
  // Timestamps with and without milliseconds compare by time, not as text.
  ASSERT_TRUE(cache.store(make_record("t", "measured", "2025-06-01T00:00:00.500Z", 100, 6)));
  ASSERT_TRUE(cache.store(make_record("t", "measured", "2025-06-01T00:00:00Z", 100, 7)));
  EXPECT_EQ(cache.lookup("t")->answer.size.x, 6);
}

TEST(AdvisorCache, RecordNeedingMoreThanTheLimitIsAMiss) {
  frost::test::TempDir tmp;
  AdvisorCache cache(tmp.path());
  ASSERT_TRUE(cache.store(make_record("k", "measured", "2025-01-01T00:00:00.000Z", 1000, 1)));
  EXPECT_TRUE(cache.lookup("k", 0).has_value()); // 0 = no limit
  EXPECT_TRUE(cache.lookup("k", 1000).has_value());
  EXPECT_TRUE(cache.lookup("k", 5000).has_value());
  EXPECT_FALSE(cache.lookup("k", 999).has_value());
  // A record that fits is used even when a preferred one does not.
  ASSERT_TRUE(cache.store(make_record("k", "heuristic", "2025-01-01T00:00:00.000Z", 500, 2)));
  EXPECT_EQ(cache.lookup("k", 999)->answer.size.x, 2);
  EXPECT_EQ(cache.lookup("k", 0)->answer.size.x, 1);
  EXPECT_FALSE(cache.lookup("k", 499).has_value());
}

TEST(AdvisorCache, DirectoryBelowARegularFileIsReadOnly) {
  frost::test::TempDir tmp;
  append_raw(tmp.file("plain-file"), "x");
  LogCapture log(tmp.file("log.txt"));
  AdvisorCache cache(tmp.file("plain-file/cache"));
  EXPECT_TRUE(cache.read_only());
  EXPECT_FALSE(cache.store(make_record("k")));
  EXPECT_FALSE(cache.store(make_record("k")));
  EXPECT_FALSE(cache.lookup("k").has_value());
  EXPECT_TRUE(cache.records().empty());
  AdvisorCache again(tmp.file("plain-file/cache"));
  EXPECT_TRUE(again.read_only());
  EXPECT_EQ(log.warnings(), 1) << log.text(); // once per directory and process
  EXPECT_THROW(cache.compact(), frost::Error);
  EXPECT_THROW(cache.clear(), frost::Error);
}

/// Makes a directory unwritable for the test's lifetime: chmod for ordinary users; for root
/// (whom permission bits do not stop) the immutable attribute, where the file system and the
/// process's capabilities allow it. `why` says why neither worked.
class Unwritable {
public:
  explicit Unwritable(const std::string& dir) : dir_(dir) {
    if (::geteuid() != 0) {
      chmod_ = ::chmod(dir.c_str(), 0555) == 0;
      if (!chmod_) why_ = "chmod failed";
      return;
    }
    const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY);
    int flags = 0;
    if (fd >= 0 && ::ioctl(fd, FS_IOC_GETFLAGS, &flags) == 0) {
      flags |= FS_IMMUTABLE_FL;
      immutable_ = ::ioctl(fd, FS_IOC_SETFLAGS, &flags) == 0;
    }
    if (fd >= 0) ::close(fd);
    if (!immutable_)
      why_ = "running as root, where chmod does not stop writes, and the immutable attribute cannot be set "
             "here (no CAP_LINUX_IMMUTABLE or unsupported file system)";
  }
  ~Unwritable() {
    if (chmod_) ::chmod(dir_.c_str(), 0755);
    if (immutable_) {
      const int fd = ::open(dir_.c_str(), O_RDONLY | O_DIRECTORY);
      int flags = 0;
      if (fd >= 0 && ::ioctl(fd, FS_IOC_GETFLAGS, &flags) == 0) {
        flags &= ~FS_IMMUTABLE_FL;
        (void)::ioctl(fd, FS_IOC_SETFLAGS, &flags);
      }
      if (fd >= 0) ::close(fd);
    }
  }
  bool ok() const { return chmod_ || immutable_; }
  const std::string& why() const { return why_; }

private:
  std::string dir_, why_;
  bool chmod_ = false, immutable_ = false;
};

TEST(AdvisorCache, UnwritableDirectoryServesExistingRecords) {
  frost::test::TempDir tmp;
  const std::string dir = tmp.file("cache");
  {
    AdvisorCache writer(dir);
    ASSERT_TRUE(writer.store(make_record("k", "measured")));
  }
  Unwritable guard(dir);
  if (!guard.ok()) GTEST_SKIP() << guard.why();
  LogCapture log(tmp.file("log.txt"));
  AdvisorCache cache(dir);
  EXPECT_TRUE(cache.read_only());
  EXPECT_TRUE(cache.lookup("k").has_value());
  EXPECT_FALSE(cache.store(make_record("k2")));
  EXPECT_EQ(cache.records().size(), 1u);
  EXPECT_EQ(log.warnings(), 1) << log.text();
}

TEST(AdvisorCache, ClearRemovesEverything) {
  frost::test::TempDir tmp;
  AdvisorCache cache(tmp.path());
  ASSERT_TRUE(cache.store(make_record("k")));
  cache.clear();
  EXPECT_FALSE(std::filesystem::exists(cache.file()));
  EXPECT_FALSE(cache.lookup("k").has_value());
  cache.clear(); // nothing to clear is fine
  EXPECT_TRUE(cache.store(make_record("k")));
  EXPECT_TRUE(cache.lookup("k").has_value());
}

TEST(AdvisorCache, CompactKeepsThePreferredRecordPerKey) {
  frost::test::TempDir tmp;
  AdvisorCache cache(tmp.path());
  ASSERT_TRUE(cache.store(make_record("a", "heuristic", "2025-09-01T00:00:00.000Z", 100, 1)));
  ASSERT_TRUE(cache.store(make_record("b", "heuristic", "2025-01-01T00:00:00.000Z", 100, 10)));
  ASSERT_TRUE(cache.store(make_record("a", "measured", "2025-05-01T00:00:00.000Z", 100, 2)));
  append_raw(cache.file(), "{broken\n");
  ASSERT_TRUE(cache.store(make_record("a", "measured", "2025-01-01T00:00:00.000Z", 100, 3)));
  ASSERT_TRUE(cache.store(make_record("b", "heuristic", "2025-02-01T00:00:00.000Z", 100, 11)));
  const auto before_a = cache.lookup("a"), before_b = cache.lookup("b");

  cache.compact();
  const auto after = cache.records();
  ASSERT_EQ(after.size(), 2u);
  EXPECT_EQ(after[0].key, "a");
  EXPECT_EQ(after[0].answer.size.x, 2);
  EXPECT_EQ(after[1].key, "b");
  EXPECT_EQ(after[1].answer.size.x, 11);
  EXPECT_EQ(cache.lookup("a")->answer.size.x, before_a->answer.size.x);
  EXPECT_EQ(cache.lookup("b")->answer.size.x, before_b->answer.size.x);
  EXPECT_EQ(slurp(cache.file()).find("broken"), std::string::npos);
  // The temporary file was renamed, not left behind.
  int files = 0;
  for (const auto& e : std::filesystem::directory_iterator(tmp.path())) files += e.is_regular_file() ? 1 : 0;
  EXPECT_EQ(files, 1);
  cache.compact(); // idempotent
  EXPECT_EQ(cache.records().size(), 2u);
  ASSERT_TRUE(cache.store(make_record("c"))); // appending after compaction works
  EXPECT_EQ(cache.records().size(), 3u);
}

TEST(AdvisorCache, ExportAndImport) {
  frost::test::TempDir tmp;
  AdvisorCache source(tmp.file("src"));
  ASSERT_TRUE(source.store(make_record("a", "measured", "2025-01-01T00:00:00.000Z", 100, 1)));
  ASSERT_TRUE(source.store(make_record("b", "heuristic", "2025-01-01T00:00:00.000Z", 100, 2)));
  append_raw(source.file(), "not a record\n");
  const std::string exported = tmp.file("export.jsonl");
  source.export_to(exported);
  const std::string text = slurp(exported);
  EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 2); // only valid records are exported

  AdvisorCache target(tmp.file("dst"));
  ASSERT_TRUE(target.store(make_record("c")));
  target.import_from(exported);
  EXPECT_EQ(target.records().size(), 3u);
  EXPECT_EQ(target.lookup("a")->answer.size.x, 1);
  EXPECT_EQ(target.lookup("b")->answer.size.x, 2);
  target.import_from(exported); // records already present are not added twice
  EXPECT_EQ(target.records().size(), 3u);
  EXPECT_THROW(target.import_from(tmp.file("missing.jsonl")), frost::Error);
}

TEST(AdvisorCache, OversizedRecordIsNotStored) {
  frost::test::TempDir tmp;
  AdvisorCache cache(tmp.path());
  CacheRecord r = make_record("k");
  r.host = std::string(5000, 'h');
  LogCapture log(tmp.file("log.txt"));
  EXPECT_FALSE(cache.store(r));
  EXPECT_EQ(log.warnings(), 1);
  EXPECT_FALSE(cache.lookup("k").has_value());
  EXPECT_FALSE(cache.read_only()); // a big record is not a directory problem
}

} // namespace
} // namespace frost::fft
