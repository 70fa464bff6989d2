// C8: appends from two processes at once, and appends racing with compaction, lose nothing.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <set>
#include <string>
#include <thread>

#include "cache_test_util.hpp"
#include "frost/fft/advisor_cache.hpp"
#include "frost/test/program_run.hpp"
#include "frost/test/support.hpp"

namespace frost::fft {
namespace {

/// Starts the append helper (a separate program) for `count` records; returns its pid.
pid_t spawn_appender(const std::string& dir, const std::string& tag, int count) {
  return frost::test::spawn_process({FROST_CACHE_APPEND_HELPER, dir, tag, std::to_string(count)});
}

using frost::test::wait_exit_code;

TEST(AdvisorCacheConcurrency, TwoProcessesAppendingLeaveEveryRecordReadable) {
  frost::test::TempDir tmp;
  const int per_process = 1000;
  const pid_t a = spawn_appender(tmp.path(), "a", per_process);
  const pid_t b = spawn_appender(tmp.path(), "b", per_process);
  ASSERT_GT(a, 0);
  ASSERT_GT(b, 0);
  EXPECT_EQ(wait_exit_code(a), 0);
  EXPECT_EQ(wait_exit_code(b), 0);

  test::LogCapture log(tmp.file("log.txt"));
  AdvisorCache cache(tmp.path());
  const auto all = cache.records();
  EXPECT_EQ(all.size(), 2u * per_process);
  std::set<std::string> keys;
  for (const auto& r : all) keys.insert(r.key);
  EXPECT_EQ(keys.size(), 2u * per_process);
  EXPECT_TRUE(keys.count("proc-a-0") && keys.count("proc-a-999") && keys.count("proc-b-999"));
  EXPECT_EQ(log.warnings(), 0) << log.text(); // no torn or interleaved lines
}

TEST(AdvisorCacheConcurrency, AppendsRacingWithCompactionAreKept) {
  frost::test::TempDir tmp;
  const int count = 300;
  std::atomic<bool> done{false};
  std::thread writer([&] {
    AdvisorCache cache(tmp.path());
    for (int i = 0; i < count; ++i) cache.store(test::make_record("key-" + std::to_string(i)));
    done = true;
  });
  AdvisorCache compactor(tmp.path());
  int rounds = 0;
  while (!done) {
    compactor.compact(); // renames a new file over the one the writer appends to
    ++rounds;
    std::this_thread::sleep_for(std::chrono::milliseconds(2)); // let the writer in now and then
  }
  writer.join();
  EXPECT_GT(rounds, 0);
  std::set<std::string> keys;
  for (const auto& r : compactor.records()) keys.insert(r.key);
  EXPECT_EQ(keys.size(), static_cast<std::size_t>(count));
}

} // namespace
} // namespace frost::fft
