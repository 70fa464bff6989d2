// T9 of docs/tune.md#cpu-tests: two processes appending 500 records each under the lock leave 1000
// parseable lines, and the effective record of each key is the fastest; appends racing with a
// compaction are not lost.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <map>
#include <thread>

#include "frost/test/program_run.hpp"
#include "frost/test/support.hpp"
#include "frost/tuning/cache.hpp"
#include "tuning_test_util.hpp"

namespace frost::tuning {
namespace {

pid_t spawn_appender(const std::string& dir, int salt, int count) {
  return frost::test::spawn_process({FROST_TUNING_APPEND_HELPER, dir, std::to_string(salt), std::to_string(count)});
}

using frost::test::wait_exit_code;

TEST(TuningConcurrencyT9, TwoProcessesAppendingLeaveEveryLineParseable) {
  frost::test::TempDir tmp;
  const int per_process = 500;
  const pid_t a = spawn_appender(tmp.path(), 3, per_process);
  const pid_t b = spawn_appender(tmp.path(), 71, per_process);
  ASSERT_GT(a, 0);
  ASSERT_GT(b, 0);
  EXPECT_EQ(wait_exit_code(a), 0);
  EXPECT_EQ(wait_exit_code(b), 0);

  test::LogCapture log(tmp.file("log.txt"));
  TuningCache cache(tmp.path());
  const auto all = cache.records();
  EXPECT_EQ(all.size(), 2u * per_process);
  EXPECT_EQ(log.warnings(), 0) << log.text(); // no torn or interleaved lines
  std::size_t lines = 0;
  for (char c : test::slurp(cache.records_file())) lines += c == '\n';
  EXPECT_EQ(lines, 2u * per_process);

  // The effective record of every key is the fastest of both processes' records.
  std::map<std::string, double> fastest;
  for (const TuningRecord& r : all) {
    auto [it, inserted] = fastest.emplace(r.key, r.best_ms);
    if (!inserted) it->second = std::min(it->second, r.best_ms);
  }
  EXPECT_EQ(fastest.size(), 50u);
  for (const auto& [key, ms] : fastest) {
    LookupRequest req;
    req.key = *TuningKey::parse(key);
    const auto hit = cache.lookup(req);
    ASSERT_TRUE(hit);
    EXPECT_EQ(hit->source, ConfigSource::Exact);
    EXPECT_EQ(hit->record.best_ms, ms) << key;
  }
  // Compaction keeps exactly those.
  cache.compact();
  ASSERT_EQ(cache.records().size(), 50u);
  for (const TuningRecord& r : cache.records()) EXPECT_EQ(r.best_ms, fastest.at(r.key));
}

TEST(TuningConcurrencyT9, AppendsRacingWithCompactionAreKept) {
  frost::test::TempDir tmp;
  const int count = 200;
  std::atomic<bool> done{false};
  std::thread writer([&] {
    TuningCache cache(tmp.path());
    for (int i = 0; i < count; ++i)
      cache.append(test::make_record(test::make_key("reduce", 1, "size=" + std::to_string(i)).str(), 1.0));
    done = true;
  });
  TuningCache compactor(tmp.path());
  int rounds = 0;
  while (!done) {
    compactor.compact(); // renames a new file over the one the writer appends to
    ++rounds;
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  writer.join();
  EXPECT_GT(rounds, 0);
  compactor.reload();
  EXPECT_EQ(compactor.records().size(), static_cast<std::size_t>(count));
}

} // namespace
} // namespace frost::tuning
