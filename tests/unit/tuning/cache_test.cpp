// T7 of docs/tune.md#cpu-tests, the file half: records written and read back, malformed lines
// skipped with one warning, other schema versions ignored but preserved, unknown fields kept by
// compaction; the cache directory of docs/tune.md#location-and-files; read-only and shipped databases.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>

#include "frost/core/error.hpp"
#include "frost/test/support.hpp"
#include "frost/tuning/cache.hpp"
#include "tuning_test_util.hpp"

namespace frost::tuning {
namespace {

using test::LogCapture;

std::string key(const std::string& problem) { return test::make_key("extrema_full", 0x1234, problem).str(); }

using frost::test::EnvVar;

TEST(TuningCacheT7, DirectoryFollowsTheSpecOrder) {
  EnvVar a("FROST_TUNING_CACHE", nullptr), b("FROST_CACHE_DIR", nullptr), c("XDG_CACHE_HOME", nullptr),
      d("HOME", "/home/someone");
  EXPECT_EQ(tuning_cache_dir("/explicit"), "/explicit");
  EXPECT_EQ(tuning_cache_dir(), "/home/someone/.cache/frost/tuning");
  EnvVar xdg("XDG_CACHE_HOME", "/xdg");
  EXPECT_EQ(tuning_cache_dir(), "/xdg/frost/tuning");
  EnvVar shared("FROST_CACHE_DIR", "/shared/cache");
  EXPECT_EQ(tuning_cache_dir(), "/shared/cache/tuning");
  EnvVar own("FROST_TUNING_CACHE", "/site/tuning");
  EXPECT_EQ(tuning_cache_dir(), "/site/tuning");
  EXPECT_EQ(tuning_cache_dir("/explicit"), "/explicit");
  EXPECT_NE(shipped_database_dir().find("/share/frost/tuning"), std::string::npos);
}

TEST(TuningCacheT7, RecordsWrittenAreReadBackByAnotherInstance) {
  frost::test::TempDir tmp;
  const std::string dir = tmp.path() + "/new/tuning"; // created on the first append
  TuningCache cache(dir);
  EXPECT_TRUE(cache.records().empty());
  TuningRecord r = test::make_record(key("size=64"), 1.25);
  r.host.clear();
  r.time.clear();
  r.tool.clear();
  ASSERT_TRUE(cache.append(r));
  ASSERT_TRUE(cache.append(test::make_record(key("size=128"), 2.5)));
  EXPECT_EQ(cache.records().size(), 2u); // visible at once in this instance
  TuningCache again(dir);
  const auto all = again.records();
  ASSERT_EQ(all.size(), 2u);
  EXPECT_EQ(all[0].key, r.key);
  EXPECT_EQ(all[0].best_ms, 1.25);
  EXPECT_FALSE(all[0].host.empty()); // provenance filled in on append
  EXPECT_EQ(all[0].time.size(), 24u);
  EXPECT_EQ(all[0].tool.rfind("frost ", 0), 0u);
  EXPECT_EQ(all[1].best, r.best);
  EXPECT_EQ(test::slurp(again.records_file()).back(), '\n');
}

TEST(TuningCacheT7, MalformedLinesAreSkippedWithOneWarning) {
  frost::test::TempDir tmp;
  LogCapture log(tmp.file("log.txt"));
  const std::string dir = tmp.path() + "/c";
  TuningCache cache(dir);
  ASSERT_TRUE(cache.append(test::make_record(key("size=64"), 1.0)));
  const std::string good = record_to_json(test::make_record(key("size=32"), 3.0));
  test::append_raw(cache.records_file(), "garbage\n{\"schema\":1}\n\n" + good.substr(0, 40) + "\n" + good + "\n");
  TuningCache reread(dir);
  EXPECT_EQ(reread.records().size(), 2u);
  reread.reload();
  TuningCache third(dir);
  EXPECT_EQ(third.records().size(), 2u);
  EXPECT_EQ(log.warnings(), 1) << log.text();
}

TEST(TuningCacheT7, ATornLastLineCostsOnlyItself) {
  frost::test::TempDir tmp;
  TuningCache cache(tmp.path());
  ASSERT_TRUE(cache.append(test::make_record(key("size=64"), 1.0)));
  const std::string torn = record_to_json(test::make_record(key("size=32"), 3.0));
  test::append_raw(cache.records_file(), torn.substr(0, 50)); // a writer killed mid-line
  ASSERT_TRUE(cache.append(test::make_record(key("size=16"), 2.0)));
  TuningCache reread(tmp.path());
  ASSERT_EQ(reread.records().size(), 2u);
  EXPECT_EQ(reread.records()[1].best_ms, 2.0);
}

TEST(TuningCacheT7, OtherSchemaIgnoredButPreservedUnknownFieldsSurviveCompaction) {
  frost::test::TempDir tmp;
  TuningCache cache(tmp.path());
  const std::string k = key("size=64");
  ASSERT_TRUE(cache.append(test::make_record(k, 3.0, 50, "2026-01-01T00:00:00.000Z")));
  // A faster record of the same key written by a newer frost, with a field this one lacks.
  std::string faster = record_to_json(test::make_record(k, 1.0, 50, "2026-01-02T00:00:00.000Z"));
  faster.insert(faster.size() - 1, ",\"future_field\":{\"x\":[1,2]}");
  const std::string foreign = "{\"schema\":2,\"key\":\"whatever\",\"layout\":\"new\"}";
  test::append_raw(cache.records_file(), faster + "\n" + foreign + "\nbroken line\n");
  ASSERT_TRUE(cache.append(test::make_record(k, 2.0, 50, "2026-01-03T00:00:00.000Z")));
  ASSERT_TRUE(cache.append(test::make_record(key("size=128"), 5.0)));

  cache.reload();
  EXPECT_EQ(cache.records().size(), 4u);
  EXPECT_EQ(cache.other_schema_lines(), 1u);
  cache.compact();
  const std::string text = test::slurp(cache.records_file());
  // Kept verbatim and in file order: the fastest of key k (with its unknown field), the foreign
  // line, the only record of size=128; the slower records and the broken line are gone.
  EXPECT_EQ(text, faster + "\n" + foreign + "\n" + record_to_json(cache.records().back()) + "\n");
  ASSERT_EQ(cache.records().size(), 2u);
  EXPECT_EQ(cache.records()[0].best_ms, 1.0);
  EXPECT_EQ(cache.other_schema_lines(), 1u);
  cache.compact(); // idempotent
  EXPECT_EQ(test::slurp(cache.records_file()), text);
}

TEST(TuningCacheT7, ReadOnlyDirectoryIsUsedWithOneWarning) {
  if (::geteuid() == 0) GTEST_SKIP() << "root writes into read-only directories";
  frost::test::TempDir tmp;
  {
    TuningCache writable(tmp.path());
    ASSERT_TRUE(writable.append(test::make_record(key("size=64"), 1.0)));
  }
  ::chmod(tmp.path().c_str(), 0555);
  LogCapture log(tmp.path() + "/../frost-tuning-ro-log-" + std::to_string(::getpid()) + ".txt");
  {
    TuningCache cache(tmp.path());
    EXPECT_TRUE(cache.read_only());
    EXPECT_EQ(cache.records().size(), 1u);
    EXPECT_FALSE(cache.append(test::make_record(key("size=32"), 1.0)));
    EXPECT_THROW(cache.compact(), Error);
    TuningCache again(tmp.path());
  }
  ::chmod(tmp.path().c_str(), 0755);
  EXPECT_EQ(log.warnings(), 1) << log.text();
  std::filesystem::remove(tmp.path() + "/../frost-tuning-ro-log-" + std::to_string(::getpid()) + ".txt");
}

TEST(TuningCacheT7, ADirectoryThatCannotExistIsReadOnlyWithOneWarning) {
  // Works for root too: the path runs through a regular file.
  frost::test::TempDir tmp;
  test::append_raw(tmp.file("plain"), "x");
  LogCapture log(tmp.file("log.txt"));
  TuningCache cache(tmp.file("plain") + "/tuning");
  EXPECT_TRUE(cache.read_only());
  EXPECT_TRUE(cache.records().empty());
  EXPECT_FALSE(cache.append(test::make_record(key("size=64"), 1.0)));
  EXPECT_THROW(cache.compact(), Error);
  TuningCache again(tmp.file("plain") + "/tuning");
  EXPECT_EQ(log.warnings(), 1) << log.text();
}

TEST(TuningCacheT7, OverlongRecordsAreRefused) {
  frost::test::TempDir tmp;
  LogCapture log(tmp.file("log.txt"));
  TuningCache cache(tmp.path() + "/c");
  TuningRecord r = test::make_record(key("size=64"), 1.0);
  r.host = std::string(kMaxRecordLineBytes, 'h');
  EXPECT_FALSE(cache.append(r));
  EXPECT_EQ(log.warnings(), 1);
  EXPECT_TRUE(cache.records().empty());
}

TEST(TuningCacheT7, ShippedDatabasesAreReadInNameOrder) {
  frost::test::TempDir tmp;
  const std::string shipped = tmp.path() + "/share";
  std::filesystem::create_directories(shipped);
  test::append_raw(shipped + "/b.jsonl", record_to_json(test::make_record(key("size=1"), 2.0)) + "\n");
  test::append_raw(shipped + "/a.jsonl", record_to_json(test::make_record(key("size=2"), 3.0)) + "\n");
  test::append_raw(shipped + "/notes.txt", "not a database\n");
  TuningCache cache(tmp.path() + "/user", {shipped, tmp.path() + "/missing"});
  EXPECT_TRUE(cache.records().empty());
  const auto s = cache.shipped_records();
  ASSERT_EQ(s.size(), 2u);
  EXPECT_EQ(s[0].best_ms, 3.0);
  EXPECT_EQ(s[1].best_ms, 2.0);
}

} // namespace
} // namespace frost::tuning

namespace frost::tuning {
namespace {

// frost_tune cache export / import / prune (docs/tune.md#the-program-frost_tune): records survive the round
// trip into another cache field by field, other-schema and malformed lines of an imported file
// are counted, and pruning removes exactly the records tuned before the cut-off.
TEST(TuningCacheT7, ExportImportAndPrune) {
  frost::test::TempDir a, b;
  TuningCache ca(a.path());
  ASSERT_TRUE(ca.append(test::make_record(key("size=1"), 1.5, 50, "2026-01-01T00:00:00.000Z")));
  ASSERT_TRUE(ca.append(test::make_record(key("size=2"), 2.5, 60, "2026-06-01T00:00:00.000Z")));
  const std::string file = a.path() + "/export.jsonl";
  EXPECT_EQ(ca.export_to(file), 2u);

  // The export plus one line of another schema and one malformed line.
  test::append_raw(file, "{\"schema\": 99, \"key\": \"x\"}\nnot json\n");
  TuningCache cb(b.path());
  const TuningCache::ImportCounts n = cb.import_from(file);
  EXPECT_EQ(n.imported, 2u);
  EXPECT_EQ(n.other_schema, 1u);
  EXPECT_EQ(n.skipped, 1u);
  const auto got = TuningCache(b.path()).records();
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(got[0].key, key("size=1"));
  EXPECT_DOUBLE_EQ(got[0].best_ms, 1.5);
  EXPECT_EQ(got[1].explored, 60);
  EXPECT_EQ(got[1].time, "2026-06-01T00:00:00.000Z");
  EXPECT_THROW(cb.import_from(b.path() + "/missing.jsonl"), frost::Error);

  EXPECT_EQ(cb.prune_before("2026-03-01T00:00:00.000Z"), 1u);
  const auto left = TuningCache(b.path()).records();
  ASSERT_EQ(left.size(), 1u);
  EXPECT_EQ(left[0].key, key("size=2"));
  EXPECT_EQ(cb.prune_before("2026-03-01T00:00:00.000Z"), 0u);
}

} // namespace
} // namespace frost::tuning
