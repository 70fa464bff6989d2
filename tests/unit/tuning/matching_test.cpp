// T8 of docs/tune.md#cpu-tests: on a prepared cache the lookup chooses exact, stale, similar, architecture
// default and kernel default in that order; similar takes the nearest size (log distance) and rejects edge
// ratios above 1.5; the effective record of a key (docs/tune.md#writing-merging-and-compaction).
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>

#include "frost/test/support.hpp"
#include "frost/tuning/cache.hpp"
#include "frost/tuning/problem_key.hpp"
#include "tuning_test_util.hpp"

namespace frost::tuning {
namespace {

constexpr std::uint64_t kSig = 0x9f2c;

std::string problem(std::int64_t edge, const std::string& interp = "lookup") {
  return ProblemKey().size("spec", {edge, edge / 2 + 1}).text("interp", interp).bucket("batch", 1000).str();
}

TuningKey key_for(std::int64_t edge) { return test::make_key("fr_insert", kSig, problem(edge)); }

LookupRequest request(std::int64_t edge) {
  LookupRequest r;
  r.key = key_for(edge);
  r.size_fields = {"spec", "vol", "batch"};
  return r;
}

/// A record whose best configuration is BLOCK = `block`, so tests can tell records apart.
TuningRecord rec(const TuningKey& k, std::int64_t block, double ms = 1.0, std::int64_t explored = 50,
                 const std::string& time = "2026-01-01T00:00:00.000Z") {
  return test::make_record(k.str(), ms, explored, time, block);
}

KernelDefaults defaults() {
  KernelDefaults d;
  d.config = {{"BLOCK", 1}};
  d.per_arch = {{8, 0, {{"BLOCK", 80}}}, {9, 0, {{"BLOCK", 90}}}, {9, 9, {{"BLOCK", 99}}}};
  return d;
}

std::int64_t block_of(const Selection& s) { return s.config.at(0).second; }

TEST(TuningMatchingT8, LevelsAreTriedInOrder) {
  frost::test::TempDir tmp;
  const std::string dir = tmp.path() + "/user";
  const LookupRequest req = request(128);
  TuningKey stale = req.key;
  stale.software.driver = 11080; // the same problem, measured under an older driver
  TuningKey other_model = req.key;
  other_model.device.memory_gib = 39; // another card: never matches
  TuningKey other_kernel = req.key;
  other_kernel.kernel.version = 2; // another kernel version: never matches
  TuningKey other_setting = key_for(128);
  other_setting.problem = problem(128, "dynamic"); // differs outside the size fields
  TuningCache cache(dir);
  ASSERT_TRUE(cache.append(rec(other_model, 7)));
  ASSERT_TRUE(cache.append(rec(other_kernel, 8)));
  ASSERT_TRUE(cache.append(rec(other_setting, 9)));
  ASSERT_TRUE(cache.append(rec(key_for(100), 3)));  // similar: 128/100 = 1.28
  ASSERT_TRUE(cache.append(rec(stale, 2)));         // stale
  ASSERT_TRUE(cache.append(rec(req.key, 1)));       // exact

  Selection s = select_configuration(&cache, req, defaults());
  EXPECT_EQ(s.source, ConfigSource::Exact);
  EXPECT_EQ(block_of(s), 1);

  // Without the exact record: stale; without that too: similar; then the arch default.
  TuningCache no_exact(tmp.path() + "/b");
  for (const TuningKey& k : {other_model, other_kernel, other_setting, key_for(100), stale})
    ASSERT_TRUE(no_exact.append(rec(k, k.problem == problem(100) ? 3 : k.software.driver == 11080 ? 2 : 0)));
  s = select_configuration(&no_exact, req, defaults());
  EXPECT_EQ(s.source, ConfigSource::Stale);
  EXPECT_EQ(block_of(s), 2);

  TuningCache similar_only(tmp.path() + "/c");
  for (const TuningKey& k : {other_model, other_kernel, other_setting, key_for(100)})
    ASSERT_TRUE(similar_only.append(rec(k, k.problem == problem(100) ? 3 : 0)));
  s = select_configuration(&similar_only, req, defaults());
  EXPECT_EQ(s.source, ConfigSource::Similar);
  EXPECT_EQ(block_of(s), 3);
  EXPECT_NEAR(s.hit->max_ratio, 128.0 / 100.0, 1e-9);

  TuningCache nothing(tmp.path() + "/d");
  for (const TuningKey& k : {other_model, other_kernel, other_setting}) ASSERT_TRUE(nothing.append(rec(k, 0)));
  s = select_configuration(&nothing, req, defaults());
  EXPECT_EQ(s.source, ConfigSource::ArchDefault);
  EXPECT_EQ(block_of(s), 90);
  EXPECT_FALSE(s.hit);

  LookupRequest ampere = req; // no 8.6 entry: the 8.0 one of the same major
  ampere.key.device.cc_major = 8;
  ampere.key.device.cc_minor = 6;
  EXPECT_EQ(block_of(select_configuration(&nothing, ampere, defaults())), 80);
  LookupRequest volta = req; // no 7.x entry at all: the kernel default
  volta.key.device.cc_major = 7;
  s = select_configuration(&nothing, volta, defaults());
  EXPECT_EQ(s.source, ConfigSource::Default);
  EXPECT_EQ(block_of(s), 1);

  // Policy off passes no cache: defaults only, even with an exact record.
  s = select_configuration(nullptr, req, defaults());
  EXPECT_EQ(s.source, ConfigSource::ArchDefault);
}

TEST(TuningMatchingT8, ExactPrefersTheUserCacheOverShippedDatabases) {
  frost::test::TempDir tmp;
  const LookupRequest req = request(128);
  const std::string shipped = tmp.path() + "/share";
  std::filesystem::create_directories(shipped);
  test::append_raw(shipped + "/db.jsonl", record_to_json(rec(req.key, 5, 0.5)) + "\n");
  TuningCache cache(tmp.path() + "/user", {shipped});
  auto hit = cache.lookup(req);
  ASSERT_TRUE(hit);
  EXPECT_TRUE(hit->shipped);
  EXPECT_EQ(hit->source, ConfigSource::Exact);
  ASSERT_TRUE(cache.append(rec(req.key, 6, 0.9))); // slower, but the user's own
  hit = cache.lookup(req);
  ASSERT_TRUE(hit);
  EXPECT_FALSE(hit->shipped);
  EXPECT_EQ(hit->record.best.at(0).second, 6);
}

TEST(TuningMatchingT8, SimilarTakesTheNearestSizeWithinOneAndAHalf) {
  frost::test::TempDir tmp;
  TuningCache cache(tmp.path());
  // Edges 91, 160, 192, 256 around a request for 128: log distances 0.341, 0.223, 0.405, 0.693.
  for (std::int64_t e : {91, 160, 192, 256}) ASSERT_TRUE(cache.append(rec(key_for(e), e)));
  auto hit = cache.lookup(request(128));
  ASSERT_TRUE(hit);
  EXPECT_EQ(hit->source, ConfigSource::Similar);
  EXPECT_EQ(hit->record.best.at(0).second, 160); // 1.25 beats 128/91 = 1.41
  // A request for 64: 91/64 = 1.42 is the only candidate within 1.5.
  hit = cache.lookup(request(64));
  ASSERT_TRUE(hit);
  EXPECT_EQ(hit->record.best.at(0).second, 91);
  // 40: every candidate is more than 1.5x away.
  EXPECT_FALSE(cache.lookup(request(40)));
  // Exactly 1.5 is accepted (edges 128 and 192, and 65 -> 97 for the second edge).
  hit = cache.lookup(request(128 * 3 / 2 / 1)); // 192 itself is exact
  ASSERT_TRUE(hit);
  EXPECT_EQ(hit->source, ConfigSource::Exact);
  frost::test::TempDir tmp2;
  TuningCache two(tmp2.path());
  TuningKey k = key_for(128);
  k.problem = ProblemKey().size("spec", {128, 64}).text("interp", "lookup").bucket("batch", 1000).str();
  ASSERT_TRUE(two.append(rec(k, 11)));
  LookupRequest r = request(128);
  r.key.problem = ProblemKey().size("spec", {192, 96}).text("interp", "lookup").bucket("batch", 1000).str();
  hit = two.lookup(r);
  ASSERT_TRUE(hit);
  EXPECT_NEAR(hit->max_ratio, 1.5, 1e-12);
  r.key.problem = ProblemKey().size("spec", {193, 96}).text("interp", "lookup").bucket("batch", 1000).str();
  EXPECT_FALSE(two.lookup(r));
  // Fields that are not size fields must match exactly.
  r.size_fields = {"batch"};
  r.key.problem = ProblemKey().size("spec", {160, 81}).text("interp", "lookup").bucket("batch", 1000).str();
  EXPECT_FALSE(two.lookup(r));
}

TEST(TuningMatchingT8, UnusableConfigurationsAreSkipped) {
  frost::test::TempDir tmp;
  TuningCache cache(tmp.path());
  LookupRequest req = request(128);
  ASSERT_TRUE(cache.append(rec(req.key, 32, 1.0)));
  ASSERT_TRUE(cache.append(rec(key_for(100), 16, 1.0)));
  req.usable = [](const NamedConfig& c) { return c.at(0).second != 32; }; // e.g. too much shared memory
  const Selection s = select_configuration(&cache, req, defaults());
  EXPECT_EQ(s.source, ConfigSource::Similar);
  EXPECT_EQ(block_of(s), 16);
  req.usable = [](const NamedConfig& c) { return c.at(0).second < 16 || c.at(0).second == 80; };
  EXPECT_EQ(select_configuration(&cache, req, defaults()).source, ConfigSource::Default);
}

TEST(TuningMatchingT8, EffectiveRecordIsTheFastestThatCoversTheBudget) {
  frost::test::TempDir tmp;
  TuningCache cache(tmp.path());
  LookupRequest req = request(128);
  ASSERT_TRUE(cache.append(rec(req.key, 1, 2.0, 50, "2026-01-01T00:00:00.000Z")));
  ASSERT_TRUE(cache.append(rec(req.key, 2, 1.5, 10, "2026-01-02T00:00:00.000Z"))); // fastest, small budget
  ASSERT_TRUE(cache.append(rec(req.key, 3, 1.8, 275, "2026-01-03T00:00:00.000Z")));
  ASSERT_TRUE(cache.append(rec(req.key, 4, 1.8, 60, "2026-01-04T00:00:00Z")));     // ties with 3, newer
  req.budget = 0;
  EXPECT_EQ(cache.lookup(req)->record.best.at(0).second, 2);
  req.budget = 50; // only 1, 3, 4 explored enough: 3 and 4 tie, 4 is newer
  EXPECT_EQ(cache.lookup(req)->record.best.at(0).second, 4);
  req.budget = 100;
  EXPECT_EQ(cache.lookup(req)->record.best.at(0).second, 3);
  req.budget = 1000; // nobody covers it: the fastest of all
  EXPECT_EQ(cache.lookup(req)->record.best.at(0).second, 2);
}

} // namespace
} // namespace frost::tuning
